// SPDX-License-Identifier: GPL-2.0
/* fslens top's main loop: pump the source, cut windows, draw, read keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "feed.h"
#include "screen.h"
#include "term.h"
#include "top.h"

/* Events handed to the feed per pump before the keyboard is looked at again. */
#define PUMP_BATCH 20000
/* Longest wait for a key, so a stop flag is seen promptly. */
#define KEY_WAIT_MS TOP_DRAIN_MS

struct loop {
	struct top_source *src;
	struct top_feed *feed;
	struct top_snap snap;
	const struct top_opts *o;
	uint64_t tclock;	/* trace clock: events before it are in the feed */
	uint64_t want;		/* interactive: where the clock should be (wall x speed) */
	int src_eof;
	int ended;
	int behind;		/* interactive replay: the feed lags the wanted clock */
	unsigned int delivered;
	uint64_t last_ts;	/* of the last event handed to the feed */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int on_event(void *ctx, const struct fsl_hdr *ev)
{
	struct loop *l = ctx;

	l->delivered++;
	l->last_ts = ev->ts;
	return top_feed__event(l->feed, ev);
}

static int loop_init(struct loop *l, struct top_source *src, const struct top_opts *o,
		     char *errbuf, size_t errlen)
{
	int err = 0;

	memset(l, 0, sizeof(*l));
	l->src = src;
	l->o = o;
	l->tclock = src->start_ns;
	l->want = src->start_ns;
	l->feed = top_feed__new(&src->meta, src->start_ns, o->accumulated, &err);
	if (!l->feed) {
		snprintf(errbuf, errlen, "cannot set up the analyses: %s", strerror(-err));
		return err;
	}
	return 0;
}

static void loop_fini(struct loop *l)
{
	top_feed__free(l->feed);
	top_snap__clear(&l->snap);
}

/*
 * Move the feed to trace time t: pump (at most max events, 0 = all) and
 * note the end of a replay. Returns 0 or -errno.
 */
static int loop_pump(struct loop *l, uint64_t t, unsigned int max, char *errbuf, size_t errlen)
{
	struct top_source *src = l->src;
	int rc;

	if (!src->live && src->end_ns && t >= src->end_ns)
		t = src->end_ns + 1;	/* include the last event */
	l->delivered = 0;
	if (!l->src_eof) {
		rc = top_source__pump(src, t, max, on_event, l);
		if (rc < 0) {
			snprintf(errbuf, errlen, "reading events: %s", strerror(-rc));
			return rc;
		}
		if (rc == TOP_SRC_END)
			l->src_eof = 1;
	}
	if (l->src_eof && (src->live || !src->end_ns || l->tclock >= src->end_ns))
		l->ended = 1;
	return 0;
}

static void loop_snapshot(struct loop *l, const struct top_screen *s)
{
	size_t i;

	top_feed__snapshot(l->feed, s->accumulated, &l->snap);
	/* Tasks older than the recording have no name in the events; ask the source. */
	for (i = 0; i < l->snap.nprocs; i++)
		if (!l->snap.procs[i].comm[0])
			top_source__comm(l->src, l->snap.procs[i].pid, l->snap.procs[i].comm,
					 sizeof(l->snap.procs[i].comm));
	snprintf(l->snap.hdr.source, sizeof(l->snap.hdr.source), "%s", l->src->desc);
	l->snap.hdr.paused = s->paused;
	l->snap.hdr.ended = l->ended;
	l->snap.hdr.behind = l->behind;
	l->snap.hdr.lost = top_source__lost(l->src);
}

static void screen_setup(struct top_screen *s, const struct top_opts *o)
{
	if (o->view >= 0 && o->view < TOP_NVIEWS)
		s->cur = o->view;
	if (o->filter)
		snprintf(s->filter, sizeof(s->filter), "%s", o->filter);
	s->accumulated = o->accumulated;
}

int top_run_interactive(struct top_source *src, const struct top_opts *o, int *stop_sig,
			char *errbuf, size_t errlen)
{
	uint64_t interval_ns = (uint64_t)(o->interval_s * 1e9), now, last, next;
	struct tui_term *term;
	struct top_screen scr;
	struct loop l;
	int err = 0, key, r, was_paused = 0, timeout, busy = 0, final_cut = 0;
	/*
	 * Behind by more than half a second of wall time: the reader cannot
	 * keep up (a normal key wait leaves it KEY_WAIT_MS behind at most).
	 */
	uint64_t behind_ns = (uint64_t)(0.5 * o->speed * 1e9);

	*stop_sig = 0;
	err = loop_init(&l, src, o, errbuf, errlen);
	if (err)
		return err;
	/* Before curses starts, so it leaves these signals to us. */
	tui_signals__install();
	term = tui_term__new_curses(&err);
	if (!term) {
		tui_signals__restore();
		loop_fini(&l);
		if (err == -ENOTTY)
			snprintf(errbuf, errlen, "cannot drive the terminal: standard input/output "
				 "is not a terminal (try -b)");
		else if (err == -EIO)
			snprintf(errbuf, errlen, "cannot drive the terminal: curses does not know "
				 "TERM='%s' (try -b)", getenv("TERM") ? getenv("TERM") : "");
		else
			snprintf(errbuf, errlen, "cannot drive the terminal: %s", strerror(-err));
		return err;
	}
	top_screen__init(&scr, term);
	screen_setup(&scr, o);
	loop_snapshot(&l, &scr);
	top_screen__draw(&scr, &l.snap);

	last = mono_ns();
	next = last + interval_ns;
	for (;;) {
		if ((*stop_sig = tui_signals__pending()) || scr.quit)
			break;
		now = mono_ns();
		/*
		 * The wanted clock runs on wall time x speed whatever the feed
		 * does; the feed's clock follows it batch by batch. Pulling the
		 * wanted clock back with the feed's would lose the time a full
		 * batch took, and a dense replay would crawl with the CPU idle.
		 */
		if (!scr.paused && !l.ended) {
			if (src->live) {
				if (now - TOP_LIVE_LAG_NS > l.want)
					l.want = now - TOP_LIVE_LAG_NS;
			} else
				l.want += (uint64_t)((double)(now - last) * o->speed);
		}
		last = now;
		/* Live events keep draining while paused; a paused replay stands still. */
		if (!l.ended && (src->live || !scr.paused)) {
			int was_ended = l.ended;

			/* want runs on past a replay's end, so the lag stays in wall time */
			if (l.want > l.tclock)
				l.tclock = l.want;
			if (!src->live && src->end_ns && l.tclock > src->end_ns)
				l.tclock = src->end_ns;
			err = loop_pump(&l, l.tclock, PUMP_BATCH, errbuf, errlen);
			if (err)
				break;
			busy = l.delivered >= PUMP_BATCH;
			/*
			 * More events than one pump takes: the feed's clock waits
			 * at the last event read, so a window never claims events
			 * not yet read; the next pumps catch up at once.
			 */
			if (busy && l.last_ts < l.tclock)
				l.tclock = l.last_ts;
			if (!was_ended && l.ended)
				next = now;	/* show the end at once */
		}
		/* A replay that cannot read as fast as asked says so. */
		l.behind = !src->live && !l.ended && l.want - l.tclock > behind_ns;
		if (scr.paused != was_paused) {
			was_paused = scr.paused;
			/* Unpausing starts a fresh interval rather than one spanning the pause. */
			if (!scr.paused && !src->live)
				next = now + interval_ns;
		}
		/* After the end of a replay one last window closes, then the screen stays. */
		/* Busy, the screen still refreshes once it is an interval late. */
		if (!scr.paused && now >= next && (!busy || now >= next + interval_ns) &&
		    !final_cut) {
			final_cut = l.ended;
			top_feed__cut(l.feed, l.tclock);
			loop_snapshot(&l, &scr);
			top_screen__draw(&scr, &l.snap);
			next += interval_ns;
			if (next <= now)
				next = now + interval_ns;
		} else if (scr.want_refresh) {
			loop_snapshot(&l, &scr);
			top_screen__draw(&scr, &l.snap);
		}
		scr.want_refresh = 0;

		if (busy)
			timeout = 0;
		else if (scr.paused || l.ended || next <= now)
			timeout = KEY_WAIT_MS;
		else
			timeout = (int)((next - now) / 1000000) + 1;
		if (timeout > KEY_WAIT_MS)
			timeout = KEY_WAIT_MS;
		key = tui_term__getkey(term, timeout);
		if (key == TUI_KEY_NONE)
			continue;
		if (key == TUI_KEY_RESIZE)
			tui_term__resize(term, 0, 0);
		r = top_screen__key(&scr, &l.snap, key);
		l.snap.hdr.paused = scr.paused;
		if (r != TOP_REDRAW_NONE && !scr.want_refresh)
			top_screen__draw(&scr, &l.snap);
	}
	top_screen__fini(&scr);
	tui_term__free(term);
	tui_signals__restore();
	loop_fini(&l);
	return err;
}

static void print_frame(struct tui_term *t, FILE *out)
{
	int y, last = -1, rows = tui_term__rows(t);

	/* The footer lists keys, which mean nothing here. */
	for (y = 0; y < rows - 1; y++)
		if (tui_term__row_text(t, y)[0])
			last = y;
	for (y = 0; y <= last; y++)
		fprintf(out, "%s\n", tui_term__row_text(t, y));
	fputc('\n', out);
}

int top_run_batch(struct top_source *src, const struct top_opts *o, FILE *out, char *errbuf,
		  size_t errlen)
{
	uint64_t step = (uint64_t)(o->interval_s * o->speed * 1e9);
	struct tui_term *term;
	struct top_screen scr;
	struct loop l;
	int err, k;

	if (step == 0)
		step = 1;
	err = loop_init(&l, src, o, errbuf, errlen);
	if (err)
		return err;
	term = tui_term__new_memory(o->rows, o->cols);
	if (!term) {
		loop_fini(&l);
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	top_screen__init(&scr, term);
	screen_setup(&scr, o);
	/* Live, Ctrl-C ends the frames and the collector still stops cleanly. */
	if (src->live)
		tui_signals__install();
	for (k = 1; !o->iterations || k <= o->iterations; k++) {
		if (src->live) {
			/*
			 * Drain the ring through the interval, as the screen's loop
			 * does: it is sized for TOP_DRAIN_MS of events, not a frame's.
			 */
			uint64_t end = mono_ns() + (uint64_t)(o->interval_s * 1e9);

			while (!err && !tui_signals__pending()) {
				uint64_t now = mono_ns(), d;
				struct timespec ts;

				if (now >= end)
					break;
				d = end - now;
				if (d > TOP_DRAIN_MS * 1000000ull)
					d = TOP_DRAIN_MS * 1000000ull;
				ts.tv_sec = (time_t)(d / 1000000000ull);
				ts.tv_nsec = (long)(d % 1000000000ull);
				nanosleep(&ts, NULL);
				/* the clock stays: events wait in the stream, none released */
				err = loop_pump(&l, l.tclock, 0, errbuf, errlen);
			}
			if (err)
				break;
			if (mono_ns() - TOP_LIVE_LAG_NS > l.tclock)
				l.tclock = mono_ns() - TOP_LIVE_LAG_NS;
		} else {
			l.tclock += step;
			if (src->end_ns && l.tclock > src->end_ns)
				l.tclock = src->end_ns;
		}
		/* the cut is where the pump stops: what ends before it needs no holding */
		top_feed__horizon(l.feed, l.tclock);
		err = loop_pump(&l, l.tclock, 0, errbuf, errlen);
		if (err)
			break;
		top_feed__cut(l.feed, l.tclock);
		loop_snapshot(&l, &scr);
		top_screen__draw(&scr, &l.snap);
		print_frame(term, out);
		/* live, a frame is news: a pipe or file reader gets it now (as top -b) */
		if (src->live)
			fflush(out);
		if (l.ended || tui_signals__pending())
			break;
	}
	if (src->live)
		tui_signals__restore();
	top_screen__fini(&scr);
	tui_term__free(term);
	loop_fini(&l);
	return err;
}
