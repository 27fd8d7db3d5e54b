# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The four bandwidth binaries, server and client over rxe0 with RC: exit
# statuses, the client's JSON rows, the server's document and error counters.
. /gd/guest-lib.sh

gd_pair_test write_bw_rc gd_write_bw bw 65536 200 -c RC
gd_pair_test read_bw_rc gd_read_bw bw 65536 200 -c RC
gd_pair_test send_bw_rc gd_send_bw bw 65536 200 -c RC
gd_pair_test atomic_bw_rc gd_atomic_bw bw 8 200 -c RC
exit 0
