/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text conventions fslens reads and writes everywhere (lib/text.c):
 * sizes ("64M", "1GiB"), seconds ("1.5") as exact nanoseconds, byte counts
 * for people ("1.5 MiB"), the function name of a stack frame, names from the
 * traced system escaped, and prose wrapped to 100 columns. One
 * implementation each, so options and output read the same in every command.
 */
#ifndef FSLENS_TEXT_H
#define FSLENS_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A byte count: decimal digits, an optional K, M, G or T (powers of 1024),
 * then optionally "i", "B" or "iB" ("64M", "64MiB", "4096", "1TB").
 * 0, or -EINVAL (malformed) / -ERANGE (does not fit in 64 bits).
 */
int fsl_parse_size(const char *s, uint64_t *out);

/*
 * Non-negative seconds ("2", "1.5", ".25", "1e-3") as nanoseconds. Plain
 * decimals convert exactly (digits past the ninth decimal are truncated),
 * so "0.3" is 300000000 ns, not the 299999999 that (uint64_t)(0.3 * 1e9)
 * gives; exponent forms go through a double and are rounded. 0, -EINVAL,
 * -ERANGE.
 */
int fsl_parse_seconds(const char *s, uint64_t *ns);

/*
 * A list of ids ("123", "1,2,3"): each 1..2^31-1, at most max of them, no
 * empty items. Returns the count, or -EINVAL (malformed, *bad = the item),
 * -E2BIG (more than max).
 */
int fsl_parse_id_list(const char *s, uint32_t *out, unsigned int max, const char **bad);

/* "512 B", "12.5 KiB", "3.0 MiB", "1.25 GiB" (each unit from 10 of it). */
const char *fsl_fmt_bytes(char *buf, size_t len, uint64_t bytes);
/* The same at most 5 characters wide, for table cells: "512", "12K", "109M", "20G". */
const char *fsl_fmt_bytes_short(char *buf, size_t len, uint64_t bytes);

/*
 * The function of a symbolized frame: "ext4_da_write_begin+0x1a/0x40 [ext4]"
 * -> "ext4_da_write_begin" (up to the first '+', '/', blank or '[').
 */
size_t fsl_frame_func_len(const char *frame);
/* The same, copied into buf (truncated to len - 1). Returns buf. */
const char *fsl_frame_func(const char *frame, char *buf, size_t len);
/*
 * The recorder's own frames, innermost in every stack its probes take: the
 * BPF program (bpf_prog_*, a JIT address: "[bpf]", or the last kernel symbol
 * before the JIT area, _einittext+0x...), the tracepoint glue
 * (bpf_trace_run*, __bpf_trace_*, __traceiter_*). A bare 0x... is not
 * taken for one: without kallsyms every frame reads so.
 */
int fsl_frame_is_recorder(const char *frame);
/* How many innermost frames are the recorder's (to drop before storing). */
unsigned int fsl_frames_recorder_prefix(const char *const *frames, unsigned int n);

/*
 * Names and paths come from the traced system (a task can name itself with
 * terminal escapes): what fslens prints goes through one of these. Control
 * bytes (C0, DEL, C1) and bytes that are not well-formed UTF-8 become \xNN;
 * printable UTF-8 stays as it is.
 *
 * fsl_text_escape: n bytes of src (up to a NUL; n = (size_t)-1: strlen) into
 * dst (len bytes, always NUL-terminated, cut only between characters).
 * Returns the length written.
 */
size_t fsl_text_escape(char *dst, size_t len, const char *src, size_t n);
/* The same, written to f. */
void fsl_text_fput(FILE *f, const char *s, size_t n);
/* In place, for fixed-size names (comm): each such byte becomes '?', as ps shows it. */
void fsl_text_sanitize(char *s);

/*
 * text wrapped at spaces to 100 columns, then a newline: the first line at
 * indent after lead, the others at cont. Runs of spaces print as one; a
 * word longer than a line is not cut.
 */
void fsl_text_wrap(FILE *f, int indent, const char *lead, int cont, const char *text);

#endif /* FSLENS_TEXT_H */
