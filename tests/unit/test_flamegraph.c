// SPDX-License-Identifier: GPL-2.0
/* The flame graph SVG from folded lines: counts summed per path, names escaped. */
#include <stdlib.h>
#include "fslens/export.h"
#include "t.h"

static char *svg_of(const char *folded)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fsl_flamegraph_svg(f, folded, strlen(folded), "t<1>", "us")) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

TEST(flamegraph_sums_and_escapes)
{
	/* a;b 30 + a;c 10 + a;b;d 5 + x<y 1 (+ a line without a count, skipped) */
	char *s = svg_of("a;b 30\na;c 10\na;b;d 5\nx<y 1\nbroken\n");

	REQUIRE(s);
	CHECK(strstr(s, "data-v=\"46\" data-name=\"all\""));
	CHECK(strstr(s, "data-v=\"45\" data-name=\"a\""));
	CHECK(strstr(s, "data-v=\"35\" data-name=\"b\""));
	CHECK(strstr(s, "data-v=\"10\" data-name=\"c\""));
	CHECK(strstr(s, "data-v=\"5\" data-name=\"d\""));
	CHECK(strstr(s, "data-v=\"1\" data-name=\"x&lt;y\""));
	CHECK(strstr(s, "<title>x&lt;y (1 us, 2.17%)</title>"));
	CHECK(strstr(s, ">t&lt;1&gt;</text>"));
	CHECK(!strstr(s, "broken"));
	/* b (35 of 46) is 35/46 of the 1180 px: 897.8 */
	CHECK(strstr(s, "width=\"897.8\" height=\"15\" fill=\"rgb") != NULL);
	free(s);
	s = svg_of("");
	REQUIRE(s);
	CHECK(strstr(s, ">no samples</text>"));
	free(s);
}
