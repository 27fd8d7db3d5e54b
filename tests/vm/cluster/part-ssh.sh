# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "ssh" of the cluster test (sourced by node.sh): a remote shell on both
# nodes for pdsh and for moving files between them: dropbear, its key made on
# node01 and handed to node02 over the link. pdsh uses its ssh rcmd module
# (PDSH_RCMD_TYPE=ssh) with dropbear's client under the name ssh: of the
# modules Debian's pdsh ships (ssh, exec, xrcmd), ssh is what clusters run
# and what authenticates (a key per user); xrcmd speaks the BSD rsh
# protocol, which needs an rshd on every node, reserved source ports and
# trust by host name, and sends everything in clear (no rshd in Debian's
# default install, none here); exec only runs a local command per host, so
# it would still need ssh underneath.
D=$WORK/ssh
mkdir -p "$D" /root/.ssh /etc/dropbear
chmod 0700 /root/.ssh
printf '/bin/sh\n/bin/bash\n' >/etc/shells
# dropbear gives remote commands PATH=/usr/bin:/bin, as sshd would for an
# installed package: our programs go there too.
for p in /gd/bin/gd_*; do ln -sf "$p" "/usr/bin/${p##*/}"; done
# The launch lines bound every run with timeout(1): busybox's here.
[ -e /usr/bin/timeout ] || ln -s /bin/busybox /usr/bin/timeout
ln -sf dbclient /usr/bin/ssh
# pdsh's ssh module runs "ssh" with these arguments (dbclient's spelling:
# -y -y accepts the new host key, -i the key made here).
PDSH_RCMD_TYPE=ssh
PDSH_SSH_ARGS="-y -y -i /root/.ssh/id_dropbear -l%u %h"
export PDSH_RCMD_TYPE PDSH_SSH_ARGS
start_sshd() {
	dropbear -R -E -p 22 -P /run/dropbear.pid 2>"$D/dropbear.err" ||
		cl_bail "dropbear did not start: $(head -3 "$D/dropbear.err" | tr '\n' ' ')"
}

if [ "$GD_NODE" = node01 ]; then
	dropbearkey -t ed25519 -f /root/.ssh/id_dropbear >/dev/null 2>&1
	dropbearkey -y -f /root/.ssh/id_dropbear 2>/dev/null | grep '^ssh-' >"$D/id.pub"
	cp "$D/id.pub" /root/.ssh/authorized_keys
	chmod 0600 /root/.ssh/authorized_keys
	flag ssh-key "$D/id.pub"
	start_sshd
	wait_flag ssh-sshd 120 >/dev/null
	run_bounded 60 "$D/hostname.txt" pdsh -w node01,node02 hostname
	rc=$?
	st=1
	[ $rc = 0 ] && grep -qx 'node01: node01' "$D/hostname.txt" &&
		grep -qx 'node02: node02' "$D/hostname.txt" && st=0
	tap_check $st "pdsh (ssh rcmd, dropbear on both nodes) runs hostname on node01 and node02: exit $rc" "$D/hostname.txt"
	[ $st = 0 ] || cl_bail "no remote shell between the nodes"
	flag ssh-done
else
	wait_flag ssh-key 300 /root/.ssh/authorized_keys >/dev/null
	chmod 0600 /root/.ssh/authorized_keys
	start_sshd
	flag ssh-sshd
	wait_flag ssh-done 300 >/dev/null
fi
