// SPDX-License-Identifier: GPL-2.0
/*
 * fslens monitor's HTTP side (libmicrohttpd, its own polling thread): GET
 * /metrics serves the page last published, POST /trigger asks the daemon's
 * loop for a capture. The loop (cli/cmd_monitor.c) renders and publishes
 * after each read of the kernel's aggregates; a scrape never waits for the
 * kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include "fslens/monitor.h"

/* ADDR:PORT, IPv4; an empty ADDR (":9477") is every address. */
int fsl_mon_listen_parse(const char *listen, uint32_t *addr_be, uint16_t *port)
{
	const char *colon = strrchr(listen, ':');
	char host[INET_ADDRSTRLEN + 1];
	struct in_addr a;
	char *endp;
	long p;

	if (!colon || (size_t)(colon - listen) >= sizeof(host))
		return -EINVAL;
	if (colon == listen) {
		snprintf(host, sizeof(host), "0.0.0.0");
	} else {
		memcpy(host, listen, colon - listen);
		host[colon - listen] = 0;
	}
	if (inet_pton(AF_INET, host, &a) != 1)
		return -EINVAL;
	p = strtol(colon + 1, &endp, 10);
	if (!colon[1] || *endp || p <= 0 || p > 65535)
		return -EINVAL;
	*addr_be = a.s_addr;
	*port = (uint16_t)p;
	return 0;
}

#ifndef FSL_HAVE_MHD
struct fsl_mon_http *fsl_mon_http__start(uint32_t addr_be, uint16_t port, int *err)
{
	*err = -EOPNOTSUPP;
	return NULL;
}

int fsl_mon_http__publish(struct fsl_mon_http *h, const struct fsl_mon_metrics *mm)
{
	return -EOPNOTSUPP;
}

int fsl_mon_http__take_trigger(struct fsl_mon_http *h)
{
	return 0;
}

void fsl_mon_http__stop(struct fsl_mon_http *h)
{
}
#else
#include <pthread.h>
#include <microhttpd.h>

struct fsl_mon_http {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	char *page;		/* the last rendered /metrics */
	size_t page_len;
	volatile int trigger;	/* a POST /trigger not yet taken */
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int code, const char *type,
			     const char *body, size_t len, int copy)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body,
					    copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

#define REPLY(conn, code, type, lit) reply(conn, code, type, lit, sizeof(lit) - 1, 0)

static enum MHD_Result on_http(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	static const char text[] = "text/plain; charset=utf-8";
	static int marker;
	struct fsl_mon_http *h = cls;
	enum MHD_Result ret;

	if (!strcmp(method, "POST")) {
		/* the first call only announces the request; the body follows */
		if (!*con_cls) {
			*con_cls = &marker;
			return MHD_YES;
		}
		if (*upload_size) {
			*upload_size = 0;	/* the body is not used */
			return MHD_YES;
		}
		if (strcmp(url, "/trigger"))
			return REPLY(conn, 404, text, "not found: POST /trigger\n");
		h->trigger = 1;
		return REPLY(conn, 202, text, "capture requested\n");
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return REPLY(conn, 405, text, "method not allowed\n");
	if (!strcmp(url, "/metrics")) {
		pthread_mutex_lock(&h->lock);
		ret = reply(conn, 200, "text/plain; version=0.0.4; charset=utf-8", h->page,
			    h->page_len, 1);
		pthread_mutex_unlock(&h->lock);
		return ret;
	}
	if (!strcmp(url, "/"))
		return REPLY(conn, 200, text, "fslens monitor: /metrics, POST /trigger\n");
	return REPLY(conn, 404, text, "not found: GET /metrics\n");
}

struct fsl_mon_http *fsl_mon_http__start(uint32_t addr_be, uint16_t port, int *err)
{
	struct fsl_mon_http *h = calloc(1, sizeof(*h));
	struct sockaddr_in sin = { 0 };

	if (!h) {
		*err = -ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&h->lock, NULL);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = addr_be;
	sin.sin_port = htons(port);
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, port, NULL,
				NULL, on_http, h,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)64,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
				MHD_OPTION_END);
	if (!h->d) {
		pthread_mutex_destroy(&h->lock);
		free(h);
		*err = -EADDRINUSE;
		return NULL;
	}
	return h;
}

int fsl_mon_http__publish(struct fsl_mon_http *h, const struct fsl_mon_metrics *mm)
{
	char *buf;
	size_t len;
	int e = fsl_mon_metrics__render(mm, &buf, &len);

	if (e)
		return e;
	pthread_mutex_lock(&h->lock);
	free(h->page);
	h->page = buf;
	h->page_len = len;
	pthread_mutex_unlock(&h->lock);
	return 0;
}

int fsl_mon_http__take_trigger(struct fsl_mon_http *h)
{
	if (!h || !h->trigger)
		return 0;
	h->trigger = 0;
	return 1;
}

void fsl_mon_http__stop(struct fsl_mon_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	pthread_mutex_destroy(&h->lock);
	free(h->page);
	free(h);
}
#endif
