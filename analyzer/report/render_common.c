// SPDX-License-Identifier: GPL-2.0
/* Formatting helpers shared by the text, JSON and HTML renderers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "fslens/text.h"
#include "render_internal.h"

const char *fsl_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000ull)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

const char *fsl_fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 100000)
		snprintf(buf, len, "%" PRIu64, n);
	else if (n < 100000000)
		snprintf(buf, len, "%.1fk", n / 1e3);
	else
		snprintf(buf, len, "%.1fM", n / 1e6);
	return buf;
}

const char *fsl_handle_type_name(unsigned int type)
{
	static const char *const n[] = {
		"misc", "inode", "write_page", "map_blocks", "dir", "truncate", "quota",
		"resize", "migrate", "move_extent", "xattr", "ext_convert",
	};

	return type < sizeof(n) / sizeof(n[0]) ? n[type] : "?";
}

const char *rn_kv(struct fsl_analysis *a, const char *key)
{
	static char buf[8][512];
	static unsigned int slot;
	const char *v = fsl_meta_kv(fsl_analysis__meta(a), key);

	if (!v || !*v)
		return "-";
	/* the traced machine wrote these: no terminal escapes get through */
	slot = (slot + 1) % 8;
	fsl_text_escape(buf[slot], sizeof(buf[slot]), v, (size_t)-1);
	return buf[slot];
}

const char *rn_dev(char *buf, size_t len, uint32_t dev)
{
	snprintf(buf, len, "%u:%u", FSL_MAJOR(dev), FSL_MINOR(dev));
	return buf;
}

void rn_span(struct fsl_analysis *a, uint64_t *t0, uint64_t *t1)
{
	const struct fsl_health *h = fsl_analysis__health(a);
	const struct fsl_meta *m = fsl_analysis__meta(a);
	uint64_t w0, w1;

	fsl_analysis__window(a, &w0, &w1);
	if (w1) {
		*t0 = w0;
		*t1 = w1;
		return;
	}
	*t0 = fsl_meta__u64(m, FSL_KV_START_NS, h->first_ts);
	*t1 = fsl_meta__u64(m, FSL_KV_END_NS, h->last_ts);
	if (!*t0 || (h->first_ts && h->first_ts < *t0))
		*t0 = h->first_ts;
	if (h->last_ts > *t1)
		*t1 = h->last_ts;
	if (w0 && w0 > *t0)
		*t0 = w0;
	if (*t1 < *t0)
		*t1 = *t0;
}
