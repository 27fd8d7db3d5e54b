/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ACS (Access Control Services) state of PCI bridges, read through libpci
 * from the ACS extended capability's control register. Read only: nothing
 * here ever writes config space.
 */
#include <config.h>

#include <setjmp.h>
#include <stdio.h>

#include <json-c/json.h>
#include <pci/pci.h>

#include "envelope/doctor.h"

/* Bits of the ACS Control register, in register order (PCIe base spec). */
static const struct {
	unsigned int bit;
	const char *key;
} gd_acs_bits[] = {
	{ PCI_ACS_CTRL_VALID, "source_validation" },
	{ PCI_ACS_CTRL_BLOCK, "translation_blocking" },
	{ PCI_ACS_CTRL_REQ_RED, "p2p_request_redirect" },
	{ PCI_ACS_CTRL_CMPLT_RED, "p2p_completion_redirect" },
	{ PCI_ACS_CTRL_FORWARD, "upstream_forwarding" },
	{ PCI_ACS_CTRL_EGRESS, "p2p_egress_control" },
	{ PCI_ACS_CTRL_TRANS, "direct_translated_p2p" },
};

/* Source validation and the P2P redirects send GPU-to-NIC traffic up to
 * the root complex instead of across the switch. */
bool gd_doctor_acs_redirects(unsigned int ctl)
{
	return ctl & (PCI_ACS_CTRL_VALID | PCI_ACS_CTRL_REQ_RED |
		      PCI_ACS_CTRL_CMPLT_RED | PCI_ACS_CTRL_EGRESS);
}

struct json_object *gd_doctor_acs_decode(unsigned int ctl)
{
	struct json_object *o = json_object_new_object();
	char hex[8];
	size_t i;

	snprintf(hex, sizeof(hex), "0x%04x", ctl & 0xffff);
	json_object_object_add(o, "state", json_object_new_string("read"));
	json_object_object_add(o, "acs_ctl", json_object_new_string(hex));
	for (i = 0; i < sizeof(gd_acs_bits) / sizeof(gd_acs_bits[0]); i++)
		json_object_object_add(
			o, gd_acs_bits[i].key,
			json_object_new_boolean(ctl & gd_acs_bits[i].bit));
	json_object_object_add(
		o, "redirects_peer_traffic",
		json_object_new_boolean(gd_doctor_acs_redirects(ctl)));
	return o;
}

static struct json_object *gd_acs_unknown(const char *why)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "state", json_object_new_string(why));
	json_object_object_add(o, "acs_ctl", NULL);
	json_object_object_add(o, "redirects_peer_traffic", NULL);
	return o;
}

/* Without the capability a bridge has no ACS controls, so nothing is
 * redirected. */
static struct json_object *gd_acs_absent(void)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "state",
			       json_object_new_string("no ACS capability"));
	json_object_object_add(o, "acs_ctl", NULL);
	json_object_object_add(o, "redirects_peer_traffic",
			       json_object_new_boolean(false));
	return o;
}

/* sysfs serves a function's config space beyond the first 64 bytes, where
 * the ACS capability lives, only to CAP_SYS_ADMIN (bit 21): a plain root
 * in a container may lack it, and would otherwise see "no ACS capability". */
static bool gd_acs_privileged(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return caps & (1ULL << 21);
}

/* libpci's default error handler calls exit(); jump back out instead so a
 * strange PCI setup becomes "unknown", never the end of the program. */
static jmp_buf gd_acs_jmp;

static void __attribute__((noreturn)) gd_acs_pci_error(char *msg, ...)
{
	longjmp(gd_acs_jmp, 1);
}

static void gd_acs_pci_quiet(char *msg, ...)
{
}

struct json_object *gd_doctor_acs_read(const struct gd_doctor_ctx *ctx,
				       unsigned int domain, unsigned int bus,
				       unsigned int dev, unsigned int func)
{
	struct pci_access *volatile acc = NULL;
	struct json_object *volatile res = NULL;
	struct pci_cap *cap;
	struct pci_dev *d;
	unsigned int vendor;

	if (!ctx->live || ctx->opts->topology_xml)
		return gd_acs_unknown("unknown (fixture)");
	if (!gd_acs_privileged())
		return gd_acs_unknown(
			"unknown (extended config space needs CAP_SYS_ADMIN)");
	if (setjmp(gd_acs_jmp)) {
		if (acc)
			pci_cleanup(acc);
		return gd_acs_unknown(
			"unknown (libpci could not read config space)");
	}
	acc = pci_alloc();
	acc->error = gd_acs_pci_error;
	acc->warning = gd_acs_pci_quiet;
	acc->debug = gd_acs_pci_quiet;
	pci_init(acc);
	d = pci_get_dev(acc, (int)domain, (int)bus, (int)dev, (int)func);
	/* A raw handle exists for any address; an absent function reads
	 * all ones (or nothing at all through sysfs). */
	vendor = d ? pci_read_word(d, PCI_VENDOR_ID) : 0xffff;
	cap = vendor && vendor != 0xffff
		      ? pci_find_cap(d, PCI_EXT_CAP_ID_ACS, PCI_CAP_EXTENDED)
		      : NULL;
	if (cap)
		res = gd_doctor_acs_decode(
			pci_read_word(d, cap->addr + PCI_ACS_CTRL));
	else if (vendor && vendor != 0xffff)
		res = gd_acs_absent();
	else
		res = gd_acs_unknown("unknown (device not found)");
	if (d)
		pci_free_dev(d);
	pci_cleanup(acc);
	return res;
}
