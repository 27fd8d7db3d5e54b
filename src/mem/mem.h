/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Memory backends: an enum-indexed static const table of ops (host first,
 * then hugepage, then cuda). A backend owns its --mem words (parsing and
 * formatting), allocates, registers with a PD through a route (plain,
 * peer-memory or DMA-BUF), copies in/out for initialisation and
 * verification, and describes itself (JSON) including the route decision
 * and its evidence. Callers ask questions of a spec; they never read its
 * words themselves.
 */
#ifndef GD_MEM_H
#define GD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_pd;
struct ibv_mr;
struct json_object;

enum gd_mem_kind {
	GD_MEM_HOST,
	GD_MEM_HUGEPAGE,
	GD_MEM_CUDA,
	GD_MEM_MMAP,
	GD_MEM_KIND_COUNT
};

enum gd_mem_route {
	GD_ROUTE_AUTO,	  /* device memory: the backend decides */
	GD_ROUTE_PLAIN,	  /* host/hugepage: ibv_reg_mr on CPU memory */
	GD_ROUTE_PEERMEM, /* ibv_reg_mr on a device pointer (peer-memory) */
	GD_ROUTE_DMABUF,  /* a dma-buf export + ibv_reg_dmabuf_mr */
};

#define GD_MEM_SPEC_MAX 256
#define GD_MEM_PATH_MAX 200 /* mmap:FILE: the file's name at most */

/* A device chosen by its place relative to the NIC ("cuda:near"): the
 * engine resolves it from the GPU-to-NIC map into an index before the
 * backend allocates. */
enum gd_mem_locality { GD_MEM_NAMED, GD_MEM_NEAR, GD_MEM_FAR };

struct gd_mem_spec {
	enum gd_mem_kind kind;
	int gpu_index;	     /* -1 when selected by bus id or place */
	char gpu_bus_id[32]; /* "0000:17:00.0" or "" */
	enum gd_mem_locality locality;
	enum gd_mem_route route;
	bool dmabuf_pcie; /* DMA-BUF export through the PCIe (BAR1) mapping */
	char path[GD_MEM_PATH_MAX]; /* mmap:FILE */
	uint64_t offset_bytes;	    /* mmap: --mmap-offset */
};

/* --mem text: a backend's name alone ("host", "hugepage") or, for a
 * backend with a parse hook, "name:args" ("cuda:N[:route]"). -EINVAL with
 * a recorded message that lists every backend's forms. */
int gd_mem_spec_parse(const char *text, struct gd_mem_spec *spec);
/* Canonical text form of a spec, for messages and the peer. */
void gd_mem_spec_format(const struct gd_mem_spec *spec, char *buf, size_t len);
const char *gd_mem_kind_name(enum gd_mem_kind kind);
const char *gd_mem_route_name(enum gd_mem_route route);

/*
 * Questions about --mem text asked before it is parsed (option checks,
 * whether the run needs the GPU part of the envelope). The backend is the
 * one whose name leads @text, so a mistyped argument still meets the rules
 * of its kind; NULL or an unknown word answers false.
 */
/* Memory the CPU cannot load or store (a GPU's). */
bool gd_mem_spec_is_device(const char *text);
/* Memory registered through a DMA-BUF export unless the text names the
 * peer-memory route. */
bool gd_mem_spec_may_export_dmabuf(const char *text);
/*
 * The --mem text for perftest's alias options: @flag is the family's
 * option name ("use_cuda", for --use_cuda=N and --use_cuda_bus_id=BDF),
 * @ref the device index or PCI address as given, @route AUTO or the route
 * to name. -EINVAL when no backend answers to @flag.
 */
int gd_mem_spec_alias(const char *flag, const char *ref,
		      enum gd_mem_route route, char *out, size_t len);
/* The backend advice about device memory speaks for: the one @text names
 * when it is device memory, else the first device backend of the table;
 * NULL when there is none. */
const struct gd_mem_ops *gd_mem_device_backend(const char *text);

/*
 * Per-run settings that perftest spells as options of their own
 * (--use_cuda_pcie_mapping): @spec's backend reads the ones it owns, by
 * long option name, from @options, the run's effective options as the run
 * document's "options" section has them (name -> value; NULL: none).
 * Nothing else of @spec changes.
 */
void gd_mem_spec_apply_options(struct gd_mem_spec *spec,
			       struct json_object *options);

/* How bad a fact a device backend's probe saw is: the values of the
 * envelope's enum gd_severity (mem is below the envelope). */
enum gd_mem_severity {
	GD_MEM_SEV_INFO,
	GD_MEM_SEV_WARNING,
	GD_MEM_SEV_ERROR,
};

/* What a device backend's envelope hooks are given. */
struct gd_mem_probe {
	const char *root; /* sysfs/proc root: "/" live, else a fixture */
	bool devices;	  /* false: leave the driver alone (quick envelope) */
	/* Where a hook reports what it saw: @id a stable key for scripts,
	 * @subject the device's PCI address or "host", @next_check what to
	 * look at next (NULL: none). */
	void (*finding)(void *arg, enum gd_mem_severity sev, const char *id,
			const char *subject, const char *next_check,
			const char *message);
	void *arg;
};

/*
 * A device backend's side of the test envelope: its driver and devices, and
 * per device the registration route it would take. The envelope names no
 * backend; it walks the table (gd_mem_envelope()).
 */
struct gd_mem_envelope_ops {
	/* The envelope section it fills ("gpu"), and the key of a device's
	 * ordinal in the rows of the GPU-to-NIC map ("cuda_index"). */
	const char *section;
	const char *map_index_key;
	/* Fill @section (driver, kernel modules, devices). Returns the array
	 * of device objects, borrowed from @section, each with "index",
	 * "pci_bus_id" and "uuid"; NULL when the devices were not probed. */
	struct json_object *(*inventory)(const struct gd_mem_probe *p,
					 struct json_object *section);
	/* The registration route record of device @index at @bdf; -1 and
	 * NULL when the inventory found none, and the record says what
	 * blocks one. Reports a device without a route as a finding. */
	struct json_object *(*route_record)(const struct gd_mem_probe *p,
					    int index, const char *bdf);
};

/* The @i-th backend with an envelope side, in table order; NULL past the
 * last. */
const struct gd_mem_envelope_ops *gd_mem_envelope(unsigned int i);

struct gd_mem_buf {
	const struct gd_mem_ops *ops;
	struct gd_mem_spec spec;
	void *addr; /* CPU address, or device address for cuda */
	size_t len_bytes;
	struct ibv_mr *mr;
	enum gd_mem_route route_used;
	struct json_object
		*evidence; /* route decision: used + why others not */
	void *priv;	   /* backend private state */
};

/*
 * A backend. Data first: what it is called and how it can be registered;
 * then the hooks. Every hook but the optional ones is required.
 */
struct gd_mem_ops {
	/* The --mem word, and the kind name in JSON and messages. */
	const char *name;
	/* The forms --mem accepts, for the message listing them all; empty
	 * means the name alone. */
	const char *syntax[3];
	/* perftest's option family that selects this memory (--use_cuda),
	 * or NULL; see gd_mem_spec_alias(). */
	const char *perftest_flag;
	bool cpu_accessible; /* may the CPU load/store addr directly? */
	bool dmabuf_export;  /* may register through a DMA-BUF export */
	/* Device memory: the words advice about it uses (the run's verdicts):
	 * a --mem value to suggest ("cuda:N"), what to check when its
	 * registration fails, and how a process is given the device. */
	const char *example;
	const char *route_check;
	const char *visibility;
	/* Optional, device memory: its side of the test envelope. */
	const struct gd_mem_envelope_ops *envelope;
	/* Optional: parse @args, the text after "name:" (the whole --mem
	 * text is @text, for messages), into @spec, whose kind is set and
	 * the rest zero, gpu_index -1, route plain. Without it the name alone
	 * is the whole spec; with it arguments are required. Returns 0 or
	 * -EINVAL with a recorded message. */
	int (*parse)(const char *text, const char *args,
		     struct gd_mem_spec *spec);
	/* Optional: canonical text of @spec (what parse accepts); without
	 * it the name. */
	void (*format)(const struct gd_mem_spec *spec, char *buf, size_t len);
	/* Optional: the per-run settings it owns, read from the run's
	 * effective options (see gd_mem_spec_apply_options()). */
	void (*apply_options)(struct gd_mem_spec *spec,
			      struct json_object *options);
	/* Allocate @len bytes, page-aligned, initialised to a known pattern. */
	int (*alloc)(struct gd_mem_buf *buf, size_t len_bytes);
	/* Release what alloc took; 0 or the first error, recorded. */
	int (*free)(struct gd_mem_buf *buf);
	/* Register with @pd using @access flags; fills buf->mr, route_used,
	 * evidence. Failures are decoded into next checks (gd_err). */
	int (*reg)(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);
	int (*copy_in)(struct gd_mem_buf *buf, size_t off, const void *src,
		       size_t len);
	int (*copy_out)(struct gd_mem_buf *buf, size_t off, void *dst,
			size_t len);
	/* Optional: make what a NIC wrote visible to copy_out (GPU memory
	 * without native write ordering: flush GPUDirect RDMA writes); called
	 * once before a read-back, however many copy_out calls it takes. */
	int (*before_read)(struct gd_mem_buf *buf);
	/* Optional: add backend facts (GPU name, bus id...) to @obj. */
	void (*describe)(const struct gd_mem_buf *buf, struct json_object *obj);
	/* Optional: the next check after @call failed with @errnum on device
	 * @dev, where this memory knows better than the generic advice (GPU
	 * memory is limited by BAR1 space as well as, on the peer-memory
	 * route, the locked-memory limit; its routes need kernel modules).
	 * Returns false to leave it to the generic advice. */
	bool (*reg_advice)(const struct gd_mem_buf *buf, int errnum,
			   const char *dev, const char *call, char *out,
			   size_t len);
	/* Optional: what a per-run setting named @what ("pcie_mapping")
	 * came to on registered @buf, in words for the header; false when
	 * the setting was not asked for or means nothing here. */
	bool (*effect)(const struct gd_mem_buf *buf, const char *what,
		       char *out, size_t len);
};

int gd_mem_alloc(struct gd_mem_buf *buf, const struct gd_mem_spec *spec,
		 size_t len_bytes);
int gd_mem_register(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);
/* Register @len bytes of registered @buf from @off as an MR of their own
 * (--mr_per_qp), through the route the whole buffer took; into *@mr.
 * Failures are decoded as for the whole buffer. */
int gd_mem_register_part(const struct gd_mem_buf *buf, size_t off, size_t len,
			 struct ibv_pd *pd, int access, struct ibv_mr **mr);
/* Deregister (if registered) and free; safe on a zeroed or failed buf.
 * Everything is released whatever fails; returns 0 or the first error
 * (the backend's free, e.g. cuMemFree or the GPU context's release, or
 * ibv_dereg_mr), recorded with gd_err. */
int gd_mem_free(struct gd_mem_buf *buf);
/* The route evidence of @buf, detached (the caller owns the reference;
 * NULL when none): kept across gd_mem_free() of a failed registration so
 * that its reason reaches the document. */
struct json_object *gd_mem_take_evidence(struct gd_mem_buf *buf);
/* What the per-run setting @what ("pcie_mapping": --use_cuda_pcie_mapping)
 * came to on registered @buf, into @out; false when not asked for. */
bool gd_mem_effect(const struct gd_mem_buf *buf, const char *what, char *out,
		   size_t len);
/* JSON description: kind, device (GPU name/bus id), route, evidence. */
struct json_object *gd_mem_describe(const struct gd_mem_buf *buf);

/* Verification pattern: byte i of pattern @seed is a cheap hash of
 * (seed, i), distinct per seed. Fill writes through copy_in; check reads
 * through before_read once and copy_out per chunk, and reports the first
 * mismatch (offset, expected, found) with gd_err and -EILSEQ. */
int gd_mem_fill_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			uint32_t seed);
int gd_mem_check_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			 uint32_t seed);
uint8_t gd_pattern_byte(uint32_t seed, size_t index);

/*
 * Decode a registration failure into a message with the next check: the
 * backend's reg_advice first (GPU memory: BAR1 space and by route the
 * locked-memory limit, the peer-memory module, DMA-BUF import), else ENOMEM ->
 * RLIMIT_MEMLOCK of this process (printed) vs bytes needed, and the generic
 * meaning of the errno for the call. Records with gd_err and returns @err
 * (negative errno).
 */
int gd_mem_decode_reg_error(int err, const struct gd_mem_buf *buf,
			    const char *device_name, const char *call);

/*
 * Explain a failed huge-page mapping of @len_bytes from a meminfo file
 * ("/proc/meminfo"; tests pass a fixture): records with gd_err the free
 * count, the page size and how to reserve more; returns @err.
 */
int gd_mem_hugepage_explain(int err, const char *meminfo_path,
			    size_t len_bytes);

#endif
