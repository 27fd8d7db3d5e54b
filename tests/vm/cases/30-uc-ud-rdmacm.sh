# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The other connection types where they apply (UC for write and send, UD for
# send) and connection set-up through rdma_cm (-R). Ping-pong over UC/UD
# gets one retry: a lost message stalls it (no retransmit on those).
. /gd/guest-lib.sh

gd_pair_test write_bw_uc gd_write_bw bw 65536 200 -c UC
GD_PAIR_RETRY=1 gd_pair_test write_lat_uc gd_write_lat lat 2 200 -c UC
gd_pair_test send_bw_uc gd_send_bw bw 65536 200 -c UC
GD_PAIR_RETRY=1 gd_pair_test send_lat_uc gd_send_lat lat 2 200 -c UC
# UD messages must fit one MTU (1024 on rxe0, less the 40-byte GRH).
gd_pair_test send_bw_ud gd_send_bw bw 512 200 -c UD -s 512
GD_PAIR_RETRY=1 gd_pair_test send_lat_ud gd_send_lat lat 2 200 -c UD
gd_pair_test write_bw_rdmacm gd_write_bw bw 65536 200 -c RC -R
gd_pair_test read_lat_rdmacm gd_read_lat lat 2 200 -c RC -R
gd_pair_test send_lat_rdmacm gd_send_lat lat 2 200 -c RC -R
exit 0
