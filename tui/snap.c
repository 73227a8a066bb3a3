// SPDX-License-Identifier: GPL-2.0
/* The top snapshot's storage. */
#include <stdlib.h>
#include <string.h>
#include "snap.h"

void top_snap__clear(struct top_snap *s)
{
	free(s->procs);
	free(s->stalls);
	free(s->txns);
	free(s->devs);
	free(s->dirs);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
