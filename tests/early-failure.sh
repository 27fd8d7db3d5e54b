#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A client that fails before it reaches its server (nothing listens on the
# port; on a machine without an RDMA device it fails earlier still, at its
# own device, which it opens before it connects) still writes a valid
# document that names its campaign execution: labels, role and options are
# there, the error says what failed, exit status 1.
set -u
build=${GD_TOP_BUILDDIR:-.}
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# a port nobody listens on: bind one, then close it
port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$build/gd_write_bw" --label plan=p1 --label exec=c1-x-r1 -p "$port" \
	--timeout 300 --out_json_file="$tmp/doc.json" 127.0.0.1 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || { echo "FAIL: exit status $rc, want 1"; cat "$tmp/err"; exit 1; }
"$py" - "$tmp/doc.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["labels"] == {"plan": "p1", "exec": "c1-x-r1"}, d.get("labels")
assert d["role"] == "client" and d["exit_status"] == 1
msg = d["error"]["message"]
assert "cannot connect" in msg or (
    "no RDMA device found" in msg and d["error"]["errno_name"] == "ENODEV"), d["error"]
assert d["options"]["port"] > 0
print("ok - a client that fails before its server (%s): the document keeps labels, role, options and the error"
      % ("its own device" if "RDMA device" in msg else "unreachable server"))
PY
