# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The four latency binaries, server and client over rxe0 with RC: exit
# statuses, ordered latency statistics in the client's JSON, error counters.
. /gd/guest-lib.sh

gd_pair_test write_lat_rc gd_write_lat lat 2 200 -c RC
gd_pair_test read_lat_rc gd_read_lat lat 2 200 -c RC
gd_pair_test send_lat_rc gd_send_lat lat 2 200 -c RC
gd_pair_test atomic_lat_rc gd_atomic_lat lat 8 200 -c RC
exit 0
