/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers shared by the libFuzzer targets whose decoders read files: one
 * scratch directory per process, inputs split into files at NUL bytes (a
 * byte no text input of ours may contain), written there before each run.
 */
#ifndef GD_FUZZ_UTIL_H
#define GD_FUZZ_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GD_FUZZ_MAX_CHUNKS 8

struct gd_fuzz_chunk {
	const uint8_t *data;
	size_t len;
};

static char gd_fuzz_dir[256];

static inline void gd_fuzz_clean_dir(const char *dir)
{
	struct dirent *de;
	char path[512];
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path)) {
			gd_fuzz_clean_dir(path);
			rmdir(path);
		}
	}
	closedir(d);
}

static inline void gd_fuzz_remove_dir(void)
{
	gd_fuzz_clean_dir(gd_fuzz_dir);
	rmdir(gd_fuzz_dir);
}

/* The scratch directory, created on first use and removed at exit. */
static inline const char *gd_fuzz_scratch(void)
{
	const char *tmp = getenv("TMPDIR");

	if (gd_fuzz_dir[0])
		return gd_fuzz_dir;
	snprintf(gd_fuzz_dir, sizeof(gd_fuzz_dir), "%s/gd-fuzz.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(gd_fuzz_dir))
		abort();
	atexit(gd_fuzz_remove_dir);
	return gd_fuzz_dir;
}

/* Split @data at NUL bytes into at most @max chunks (the last one keeps
 * any further NULs). Returns the number of chunks, at least 1. */
static inline size_t gd_fuzz_split(const uint8_t *data, size_t size,
				   struct gd_fuzz_chunk *c, size_t max)
{
	size_t n = 0;

	while (n + 1 < max) {
		const uint8_t *nul = memchr(data, '\0', size);

		if (!nul)
			break;
		c[n].data = data;
		c[n++].len = (size_t)(nul - data);
		size -= (size_t)(nul - data) + 1;
		data = nul + 1;
	}
	c[n].data = data;
	c[n++].len = size;
	return n;
}

/* Write @c to "<scratch>/<name>"; the path goes to @path. */
static inline void gd_fuzz_write(const char *name,
				 const struct gd_fuzz_chunk *c, char *path,
				 size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", gd_fuzz_scratch(), name);
	f = fopen(path, "w");
	if (!f)
		abort();
	if (c->len && fwrite(c->data, 1, c->len, f) != c->len)
		abort();
	if (fclose(f))
		abort();
}

#endif
