/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the side-channel decoder: arbitrary bytes go through
 * header and payload decoding exactly as gd_oob_recv feeds them, and every
 * accepted frame must re-encode to a frame that decodes again.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "transport/oob.h"

static void gd_fuzz_reencode(int type, struct json_object *obj)
{
	struct gd_frame_hdr hdr;
	struct json_object *again;
	uint8_t *buf;
	size_t len;

	if (gd_frame_encode(type, obj, &buf, &len))
		abort();
	if (gd_frame_decode_header(buf, len, &hdr) || hdr.type != type ||
	    hdr.len != len - GD_FRAME_HDR_LEN)
		abort();
	if (gd_frame_decode_payload(buf + GD_FRAME_HDR_LEN, hdr.len, &again))
		abort();
	json_object_put(again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_frame_hdr hdr;
	struct json_object *obj;
	uint8_t *body;

	gd_err_clear();
	if (gd_frame_decode_header(data, size, &hdr))
		return 0;
	if (size - GD_FRAME_HDR_LEN < hdr.len)
		return 0;
	/* Copy the payload so ASan flags any read past the announced length. */
	body = malloc(hdr.len ? hdr.len : 1);
	if (!body)
		return 0;
	memcpy(body, data + GD_FRAME_HDR_LEN, hdr.len);
	if (!gd_frame_decode_payload(body, hdr.len, &obj)) {
		gd_fuzz_reencode(hdr.type, obj);
		json_object_put(obj);
	}
	free(body);
	return 0;
}
