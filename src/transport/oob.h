/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The TCP side channel between client and server: connect/accept with
 * timeouts and retry, versioned length-prefixed frames carrying one JSON
 * object each, strict decoding. The client drives; the server validates.
 */
#ifndef GD_OOB_H
#define GD_OOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "util/version.h" /* GD_OOB_VERSION */

struct json_object;

#define GD_OOB_DEFAULT_PORT 18515
#define GD_OOB_DEFAULT_TIMEOUT_MS 10000
/* Largest payload accepted: a test description or result set, never bulk data.
 */
#define GD_FRAME_MAX_PAYLOAD (1u << 20)
/* Largest payload a server takes before it accepted the test (hello, key
 * proof, test description): what a peer without the key may make it read. */
#define GD_FRAME_HANDSHAKE_MAX (8u << 10)

/* Wire header: magic "GDPF", u16 version, u16 type, u32 payload length, all
 * big-endian; then the payload, a JSON object in UTF-8 without a NUL. */
#define GD_FRAME_MAGIC 0x47445046u
#define GD_FRAME_HDR_LEN 12
/* the MAC trailer of an authenticated frame (struct gd_oob.mac_on) */
#define GD_FRAME_MAC_BYTES 32

enum gd_frame_type {
	GD_FRAME_HELLO = 1, /* tool, version, both directions first */
	GD_FRAME_TEST,	    /* client -> server: the whole test description */
	GD_FRAME_ACCEPT,  /* server -> client: test accepted (+ server info) */
	GD_FRAME_REJECT,  /* either way: field, local value, peer value, msg */
	GD_FRAME_QP_INFO, /* QP numbers, PSNs, GIDs, rkeys, addresses */
	GD_FRAME_SYNC,	  /* barrier with a small JSON body (phase, size) */
	GD_FRAME_RESULT,  /* server results/counters back to the client */
	GD_FRAME_ERROR,	  /* the peer failed: code + message */
	GD_FRAME_BYE,
	GD_FRAME_BEAT, /* "still here": read and dropped by every receive */
	GD_FRAME_AUTH, /* --auth-key: a MAC over both nonces, after HELLO */
	GD_FRAME_TYPE_MAX = GD_FRAME_AUTH,
};

const char *gd_frame_type_name(int type);

/*
 * Pure codec, no I/O: what the fuzz target exercises.
 * gd_frame_encode writes header+payload into a malloc'd buffer.
 * gd_frame_decode_header validates magic, version, type and length bound.
 * gd_frame_decode_payload parses exactly @len bytes as one JSON object
 * (trailing garbage, non-objects, embedded NULs are rejected).
 * All return 0 or -errno (-EPROTO for malformed, -EMSGSIZE for oversize,
 * -EPROTONOSUPPORT for another version) and record a message with gd_err.
 */
struct gd_frame_hdr {
	uint16_t version;
	uint16_t type;
	uint32_t len;
};
int gd_frame_encode(int type, const struct json_object *payload, uint8_t **out,
		    size_t *out_len);
int gd_frame_decode_header(const uint8_t *buf, size_t len,
			   struct gd_frame_hdr *hdr);
int gd_frame_decode_payload(const uint8_t *buf, size_t len,
			    struct json_object **payload);

/*
 * A string the peer sent, safe to print or log: every byte outside
 * printable ASCII, and the backslash, as \xNN (so no CR, LF or ESC of the
 * peer's reaches a terminal or a log line), cut to fit @len with "...".
 * NULL prints as "?". Returns @out.
 */
const char *gd_oob_escape(const char *in, char *out, size_t len);
/* The longest a peer's string is printed, escaped, with its NUL. */
#define GD_OOB_ESC_MAX 256

struct gd_oob_beat;

struct gd_oob {
	int fd;
	int timeout_ms;	       /* per read/write and for connect retries */
	char peer_name[128];   /* "host:port" for messages */
	const char *bind_host; /* client: connect from this address; NULL any */
	int family; /* AF_UNSPEC, or AF_INET6 (--ipv6-addr): addresses taken */
	/* Frames go out whole: the heartbeat thread and the caller share
	 * the socket. */
	pthread_mutex_t send_lock;
	struct gd_oob_beat *beat; /* NULL while no heartbeat thread runs */
	_Atomic int64_t alive_ms; /* the caller's last sign of life */
	/* The peer said it was interrupted: its signal ("SIGTERM") and what
	 * it was doing; "" until then. */
	char peer_stop_signal[24];
	char peer_stop_during[160];
	/* when the last frame from the peer arrived, heartbeats included
	 * (CLOCK_MONOTONIC ms; only the caller's thread reads frames) */
	int64_t heard_ms;
	/* One deadline over every wait on this connection whatever the peer
	 * sends, heartbeats included (gd_oob_now_ms; 0: none), and the
	 * limit's name for the error ("--handshake-timeout", "--max-time") */
	int64_t until_ms;
	const char *until_what;
	int until_code; /* what the deadline returns: -ETIMEDOUT, -ETIME */
	/* the largest payload taken from the peer; 0: GD_FRAME_MAX_PAYLOAD */
	uint32_t max_payload;
	/* a BEAT is a protocol error until this end's heartbeat thread
	 * started (the hellos are through): set by the handshake */
	bool beats_refused;
	/* --auth-key, once both proofs passed: every frame either way
	 * carries GD_FRAME_MAC_BYTES of HMAC-SHA-256 under the session key
	 * over its sender's role, its sequence number (one count each way,
	 * from 0), header and payload, after the payload and counted in its
	 * length. The role keeps a frame reflected back to its sender from
	 * passing as the peer's. send_seq under send_lock; recv_seq by the
	 * one reading thread. */
	bool mac_on;
	bool mac_is_server; /* this end's role: the sender byte it seals */
	uint8_t mac_key[32];
	uint64_t send_seq, recv_seq;
};

void gd_oob_init(struct gd_oob *oob, int timeout_ms);
/* Every wait on this connection ends by @until_ms (gd_oob_now_ms; 0: no
 * such deadline) with @code (-ETIMEDOUT when 0) and a message naming @what
 * ("this server's limit of 5 s (--handshake-timeout)"), whatever the peer
 * sends. @what must outlive the deadline. */
void gd_oob_set_deadline(struct gd_oob *oob, int64_t until_ms, const char *what,
			 int code);
/* Server: bind (host may be NULL for any), accept one connection. */
int gd_oob_accept(struct gd_oob *oob, const char *bind_host, uint16_t port);
/* Server for --loopback: bind/listen first, return the listening fd so the
 * forked client can connect; then gd_oob_accept_fd() to take the connection. */
int gd_oob_listen(const char *bind_host, uint16_t port, int *listen_fd);
/* The same with the address family given: AF_INET6 listens on IPv6 only
 * (IPV6_V6ONLY). */
int gd_oob_listen_af(const char *bind_host, uint16_t port, int family,
		     int *listen_fd);
int gd_oob_accept_fd(struct gd_oob *oob, int listen_fd);
/* Wait, as long as it takes, until a connection is pending on @listen_fd
 * (0) or SIGINT/SIGTERM came (-EINTR, nothing recorded): --persist waits
 * so between clients, accepting nothing yet. */
int gd_oob_wait_client(int listen_fd);
/* Client: connect with retry until timeout_ms (the server may start later). */
int gd_oob_connect(struct gd_oob *oob, const char *host, uint16_t port);
/* Wrap an already connected socket (tests use socketpair). */
void gd_oob_attach(struct gd_oob *oob, int fd, const char *peer_name);
/* Send one frame; payload may be NULL for an empty object. */
int gd_oob_send(struct gd_oob *oob, int type,
		const struct json_object *payload);
/*
 * Receive one frame of type @expect. A GD_FRAME_ERROR or GD_FRAME_REJECT from
 * the peer is turned into a recorded error naming the peer and its message,
 * returning -ECONNABORTED (error) or -EINVAL (reject); an ERROR frame saying
 * the peer was interrupted gives -EINTR and fills peer_stop_*. Another type
 * gives -EPROTO. Timeout gives -ETIMEDOUT, peer closed -ECONNRESET.
 * Once SIGINT or SIGTERM asked the run to stop (util/stop.h), every wait for
 * the peer (receive, accept, connect) returns -EINTR within
 * GD_OOB_STOP_POLL_MS; sends still go out, so the peer can be told.
 * On success *payload is owned by the caller (json_object_put); pass NULL
 * to discard it.
 */
#define GD_OOB_STOP_POLL_MS 50
int gd_oob_recv(struct gd_oob *oob, int expect, struct json_object **payload);
/* The same with another silence limit than timeout_ms for this wait. */
int gd_oob_recv_within(struct gd_oob *oob, int expect,
		       struct json_object **payload, int silence_ms);
/*
 * Non-blocking: 1 when a frame of type @expect was waiting (and is now in
 * *payload), 0 when nothing but heartbeats was, or -errno as gd_oob_recv.
 */
int gd_oob_try_recv(struct gd_oob *oob, int expect,
		    struct json_object **payload);

/*
 * Heartbeats (oob_beat.c). The silence limit (timeout_ms) is judged by the
 * receiver on any frame, heartbeats included, so a peer whose measuring
 * thread is slow (busy CPUs, a long system call under emulation) is not
 * taken for a dead one. A thread sends GD_FRAME_BEAT every quarter of the
 * limit (at most a second apart) while the caller has shown life within
 * GD_OOB_STALL_MS or four silence limits, whichever is longer: a caller
 * stuck for good still falls silent, so the peer never waits forever.
 */
#define GD_OOB_STALL_MS 30000
int gd_oob_beat_start(struct gd_oob *oob);
void gd_oob_beat_stop(struct gd_oob *oob);
/* CLOCK_MONOTONIC in milliseconds: the clock of every side-channel limit. */
int64_t gd_oob_now_ms(void);
/* The caller's sign of life: send, receive and the measuring loops. */
static inline void gd_oob_alive(struct gd_oob *oob)
{
	atomic_store_explicit(&oob->alive_ms, gd_oob_now_ms(),
			      memory_order_relaxed);
}
/*
 * For loops that wait on the fabric, not on the side channel (the measured
 * loops): read the heartbeats waiting on the socket, never any other frame
 * (that one stays for its reader), and say whether the peer was heard
 * within @within_ms. A healthy peer whose CPU is busy still beats; one that
 * is gone does not. -errno when the socket failed or the peer closed it,
 * and the peer's own failure when it sent an ERROR frame (a server that
 * stopped the run at --max-time, an interrupted peer): the loop ends then,
 * not at its silence limit. Only the thread that reads the side channel.
 */
int gd_oob_heard_within(struct gd_oob *oob, int within_ms, bool *heard);
/* Send one whole frame without marking the caller alive (the beat thread). */
int gd_oob_send_frame(struct gd_oob *oob, int type,
		      const struct json_object *payload);

/* Convenience: send an ERROR frame with code/message, ignoring failures. */
void gd_oob_send_error(struct gd_oob *oob, int code, const char *msg);
/* Tell the peer this side was interrupted by @signal_name during @during
 * (an ERROR frame with code -EINTR and an "interrupted" object), so that it
 * ends at once instead of by its silence limit; failures ignored. */
void gd_oob_send_interrupted(struct gd_oob *oob, const char *signal_name,
			     const char *during);
void gd_oob_close(struct gd_oob *oob);
/* From the next frame on, both ways: the MAC under @key (32 bytes), the
 * sequence numbers from 0, this end sealing as the server when
 * @is_server (the peer's frames are checked as the other role's). Both
 * ends call it at the same frame boundary: the client once it took the
 * server's proof, the server once it sent it. */
void gd_oob_mac_start(struct gd_oob *oob, const uint8_t *key, bool is_server);

#endif
