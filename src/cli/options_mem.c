/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --mem: this side's device memories. One spec, or a comma-separated list
 * of up to GD_MAX_DEVMEM (D1, D2, ...: compared in one run); perftest's
 * --use_cuda family as an alias; each spec checked by its backend when the
 * command line is parsed, and the options that depend on the memory.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "mem/mem.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "engine/placement.h"

/* perftest's --use_cuda family is an alias of --mem: the memory backend
 * that answers to it writes the spec, with perftest's route (ibv_reg_mr on
 * the device pointer, DMA-BUF only with --use_cuda_dmabuf), so that a
 * side-by-side comparison with perftest measures the same route. */
static int gd_opts_merge_mem(struct gd_opts *o, bool mem_given)
{
	char buf[GD_MEM_SPEC_MAX + 16], index[24];
	const char *ref = o->use_cuda_bus_id;
	int ret;

	if (o->use_cuda_dmabuf && o->use_cuda < 0 && !o->use_cuda_bus_id &&
	    !o->mem_spec)
		return gd_err(
			-EINVAL,
			"--use_cuda_dmabuf needs a GPU: add --use_cuda=N or --use_cuda_bus_id=BDF (any order)");
	if (o->use_cuda < 0 && !o->use_cuda_bus_id)
		return 0;
	if (o->mem_spec && !mem_given)
		return 0; /* merged already (validate runs again on the server)
			   */
	if (o->mem_spec)
		return gd_err(
			-EINVAL,
			"--mem and --use_cuda/--use_cuda_bus_id both name the device memory; give one");
	if (o->use_cuda >= 0 && o->use_cuda_bus_id)
		return gd_err(
			-EINVAL,
			"--use_cuda and --use_cuda_bus_id both select a GPU; give one");
	if (!ref) {
		snprintf(index, sizeof(index), "%lld", (long long)o->use_cuda);
		ref = index;
	}
	ret = gd_mem_spec_alias("use_cuda", ref,
				o->use_cuda_dmabuf ? GD_ROUTE_DMABUF
						   : GD_ROUTE_PEERMEM,
				buf, sizeof(buf));
	if (ret)
		return ret;
	o->mem_spec = strdup(buf);
	return 0;
}

/* perftest's --mmap=FILE is --mem=mmap:FILE; --mmap-offset needs one. */
static int gd_opts_merge_mmap(struct gd_opts *o, bool mem_given,
			      bool offset_given)
{
	char buf[GD_MEM_SPEC_MAX + 16];
	int ret;

	if (o->mmap_path && o->mem_spec && mem_given)
		return gd_err(
			-EINVAL,
			"--mem and --mmap both name the device memory; give one (--mmap=FILE is --mem=mmap:FILE)");
	if (o->mmap_path && !o->mem_spec) {
		if (strchr(o->mmap_path, ','))
			return gd_err(
				-EINVAL,
				"--mmap=%s: a comma would split the memory list; name the file without one (a symbolic link)",
				o->mmap_path);
		ret = gd_mem_spec_alias("mmap", o->mmap_path, GD_ROUTE_AUTO,
					buf, sizeof(buf));
		if (ret)
			return ret;
		o->mem_spec = strdup(buf);
	}
	if (offset_given && (!o->mem_spec || !strstr(o->mem_spec, "mmap:")))
		return gd_err(
			-EINVAL,
			"--mmap-offset places the buffer in --mmap's file: add --mmap=FILE (or --mem=mmap:FILE)");
	return 0;
}

/* The list into o->mem_list, each spec parsed by its backend now, so a
 * mistyped word fails with every backend's forms before any connection. */
static int gd_opts_mem_split(struct gd_opts *o)
{
	const char *p = o->mem_spec;
	struct gd_mem_spec spec;

	for (unsigned int k = 0; k < o->num_mem; k++)
		free(o->mem_list[k]);
	o->num_mem = 0;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		char *one = strndup(p, n);

		if (!one)
			return gd_err(-ENOMEM, "--mem: out of memory");
		if (o->num_mem == GD_MAX_DEVMEM) {
			free(one);
			return gd_err(
				-E2BIG,
				"--mem: at most %d device memories in one run",
				GD_MAX_DEVMEM);
		}
		o->mem_list[o->num_mem++] = one;
		if (!n || gd_mem_spec_parse(one, &spec))
			return n ? gd_err_code()
				 : gd_err(-EINVAL,
					  "--mem=%s: an empty entry in the list",
					  o->mem_spec);
		for (unsigned int k = 0; k + 1 < o->num_mem; k++)
			if (!strcmp(o->mem_list[k], one))
				return gd_err(-EINVAL,
					      "--mem: '%s' is listed twice",
					      one);
		p += n + (p[n] == ',');
	}
	return 0;
}

bool gd_opts_mem_any(const struct gd_opts *o, bool (*pred)(const char *))
{
	for (unsigned int k = 0; k < o->num_mem; k++)
		if (pred(o->mem_list[k]))
			return true;
	return false;
}

static bool gd_is_hugepage(const char *spec)
{
	return !strncmp(spec, "hugepage", 8);
}

static bool gd_is_mmap(const char *spec)
{
	return !strncmp(spec, "mmap:", 5);
}

int gd_opts_mem_validate(struct gd_opts *o, bool mem_given, bool inline_given,
			 bool mmap_offset_given)
{
	if (gd_opts_merge_mem(o, mem_given) ||
	    gd_opts_merge_mmap(o, mem_given, mmap_offset_given) ||
	    gd_opts_mem_split(o))
		return gd_err_code();
	/* both halves take the same options, so they would share one range
	 * of the file: the data would land where it came from, and --verify's
	 * fills of source and destination would race */
	if (o->loopback && gd_opts_mem_any(o, gd_is_mmap))
		return gd_err(
			-EINVAL,
			"--mmap/--mem=mmap:FILE with --loopback: both halves would map the same range of the file; run a server and a client, each with its own file or --mmap-offset");
	if (o->use_hugepages && gd_opts_mem_any(o, gd_is_hugepage))
		return gd_err(
			-EINVAL,
			"--use_hugepages and --mem=hugepage say the same; give one");
	if (o->inline_bytes && inline_given &&
	    gd_opts_mem_any(o, gd_mem_spec_is_device))
		return gd_err(
			-EINVAL,
			"-I %" PRIu64
			": inline data is copied by the CPU and cannot come from GPU memory (--mem %s); drop -I",
			o->inline_bytes, o->mem_spec);
	if (o->use_cuda_pcie_mapping &&
	    !gd_opts_mem_any(o, gd_mem_spec_may_export_dmabuf))
		return gd_err(
			-EINVAL,
			"--use_cuda_pcie_mapping applies to DMA-BUF exports of GPU memory: add --mem=cuda:N (auto or :dmabuf route) or --use_cuda=N with --use_cuda_dmabuf (--use_cuda alone is perftest's peer-memory route)");
	return 0;
}
