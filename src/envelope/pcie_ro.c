/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Relaxed ordering as it takes effect: IBV_ACCESS_RELAXED_ORDERING only
 * asks, and the NIC function sends relaxed-ordered writes only when the
 * "Enable Relaxed Ordering" bit of its PCI Express Device Control register
 * is set. Read through libpci's sysfs method; nothing here writes config
 * space.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

#include "envelope/envelope.h"

/* The standard header; sysfs gives the rest to CAP_SYS_ADMIN only. */
#define GD_PCI_STD_HEADER_BYTES 0x40
#define GD_PCI_MAX_CAPS 48

/* libpci's default error handler calls exit(): jump back out instead,
 * keeping its message for the reason. */
static jmp_buf gd_ro_jmp;
static char gd_ro_pci_msg[160];

static void __attribute__((noreturn)) gd_ro_pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(gd_ro_pci_msg, sizeof(gd_ro_pci_msg), msg, ap);
	va_end(ap);
	longjmp(gd_ro_jmp, 1);
}

static void gd_ro_pci_quiet(char *msg, ...)
{
	(void)msg;
}

static int gd_ro_unknown(struct gd_pcie_ro *ro, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int gd_ro_unknown(struct gd_pcie_ro *ro, int err, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ro->text, sizeof(ro->text), "unknown (");

	va_start(ap, fmt);
	vsnprintf(ro->text + n, sizeof(ro->text) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	strcat(ro->text, ")");
	ro->state = GD_PCIE_RO_UNKNOWN;
	return err;
}

/* @ibdev's PCI function from ROOT/sys/class/infiniband/DEV/device. */
static int gd_ro_function(const char *root, const char *ibdev,
			  struct gd_pcie_ro *ro, unsigned int addr[4])
{
	char link[PATH_MAX], real[PATH_MAX];
	const char *base;
	int used = 0;

	snprintf(link, sizeof(link), "%s/sys/class/infiniband/%s/device", root,
		 ibdev);
	if (!realpath(link, real))
		return gd_ro_unknown(
			ro, -ENODEV,
			"%s has no parent device in sysfs (%s): a software device such as rxe or siw has no PCI function of its own",
			ibdev, link);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (sscanf(base, "%x:%x:%x.%x%n", &addr[0], &addr[1], &addr[2],
		   &addr[3], &used) != 4 ||
	    base[used])
		return gd_ro_unknown(
			ro, -ENODEV,
			"%s's parent device %s is not a PCI function: a software or virtual device",
			ibdev, base);
	snprintf(ro->bdf, sizeof(ro->bdf), "%04x:%02x:%02x.%x", addr[0],
		 addr[1], addr[2], addr[3]);
	return 0;
}

/* Offset of the PCI Express capability, 0 if the function has none, or
 * -EACCES when its place lies beyond what this process may read. */
static int gd_ro_find_exp(struct pci_dev *d)
{
	unsigned int pos;

	if (!(pci_read_word(d, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = pci_read_byte(d, PCI_CAPABILITY_LIST) & ~3u;
	for (int i = 0; i < GD_PCI_MAX_CAPS && pos >= GD_PCI_STD_HEADER_BYTES;
	     i++) {
		unsigned int id = pci_read_byte(d, (int)pos);

		/* an unprivileged sysfs read past 64 bytes reads as ones */
		if (id == 0xff)
			return -EACCES;
		if (id == PCI_CAP_ID_EXP)
			return (int)pos;
		pos = pci_read_byte(d, (int)pos + 1) & ~3u;
	}
	return 0;
}

/* Decode a found function's Device Control register. */
static int gd_ro_decode(struct pci_dev *d, const char *ibdev,
			struct gd_pcie_ro *ro)
{
	int pos = gd_ro_find_exp(d);

	if (pos == -EACCES)
		return gd_ro_unknown(
			ro, -EACCES,
			"%s's PCI function %s: config space past 64 bytes is not readable by this process (needs CAP_SYS_ADMIN); as root: lspci -vvv -s %s | grep DevCtl, RlxdOrd+ means enabled",
			ibdev, ro->bdf, ro->bdf);
	if (!pos)
		return gd_ro_unknown(
			ro, -ENOENT,
			"%s's PCI function %s has no PCI Express capability",
			ibdev, ro->bdf);
	ro->devctl = pci_read_word(d, pos + PCI_EXP_DEVCTL);
	if (ro->devctl & PCI_EXP_DEVCTL_RELAXED) {
		ro->state = GD_PCIE_RO_ENABLED;
		snprintf(
			ro->text, sizeof(ro->text),
			"enabled (%s DevCtl 0x%04x: Enable Relaxed Ordering set)",
			ro->bdf, ro->devctl);
	} else {
		ro->state = GD_PCIE_RO_DISABLED;
		snprintf(
			ro->text, sizeof(ro->text),
			"disabled (%s DevCtl 0x%04x: Enable Relaxed Ordering clear, so the NIC's writes stay strictly ordered whatever the registration asks; check the NIC firmware setting, e.g. mlxconfig PCI_WR_ORDERING, and the kernel's quirks for the root port)",
			ro->bdf, ro->devctl);
	}
	return 0;
}

int gd_envelope_pcie_ro(const char *root, const char *ibdev,
			struct gd_pcie_ro *ro)
{
	struct pci_access *volatile acc = NULL;
	struct pci_dev *volatile d = NULL;
	char sysfs[PATH_MAX];
	unsigned int a[4], vendor;
	int ret;

	memset(ro, 0, sizeof(*ro));
	if (!ibdev || !*ibdev)
		return gd_ro_unknown(ro, -EINVAL, "no RDMA device named");
	/* "" for the live system, so paths in messages read /sys/... */
	root = root && *root && strcmp(root, "/") ? root : "";
	ret = gd_ro_function(root, ibdev, ro, a);
	if (ret)
		return ret;
	snprintf(sysfs, sizeof(sysfs), "%s/sys/bus/pci", root);
	if (setjmp(gd_ro_jmp)) {
		if (d)
			pci_free_dev(d);
		if (acc)
			pci_cleanup(acc);
		return gd_ro_unknown(
			ro, -EIO, "libpci could not read %s's config space: %s",
			ro->bdf, gd_ro_pci_msg);
	}
	acc = pci_alloc();
	acc->method = PCI_ACCESS_SYS_BUS_PCI;
	acc->error = gd_ro_pci_error;
	acc->warning = gd_ro_pci_quiet;
	acc->debug = gd_ro_pci_quiet;
	pci_set_param(acc, "sysfs.path", sysfs);
	pci_init(acc);
	d = pci_get_dev(acc, (int)a[0], (int)a[1], (int)a[2], (int)a[3]);
	vendor = d ? pci_read_word(d, PCI_VENDOR_ID) : 0xffff;
	if (!vendor || vendor == 0xffff)
		ret = gd_ro_unknown(
			ro, -ENODEV,
			"%s's PCI function %s did not answer a config read under %s",
			ibdev, ro->bdf, sysfs);
	else
		ret = gd_ro_decode(d, ibdev, ro);
	if (d)
		pci_free_dev(d);
	pci_cleanup(acc);
	return ret;
}
