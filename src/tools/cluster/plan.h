/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan's model: the cluster description (servers, GPU/NIC associations,
 * rails, racks), the worksheet arithmetic, the three schedules (and the
 * optional locality round) and the list of directed executions that the
 * writers turn into JSON, CSV and launchers.
 */
#ifndef GD_CLUSTER_PLAN_H
#define GD_CLUSTER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GD_PLAN_NAME_MAX 64
#define GD_PLAN_ARGS_MAX 512
#define GD_PLAN_ROUNDS 4     /* the fourth only with --locality-round */
#define GD_PLAN_CMD_MAX 2048 /* one side's command line */

struct json_object;

enum gd_plan_round {
	GD_ROUND_COVERAGE = 1,	  /* disjoint pairs, every association */
	GD_ROUND_DIVERSITY = 2,	  /* different partners, across racks */
	GD_ROUND_CONCURRENCY = 3, /* every rail of a pair active at once */
	GD_ROUND_LOCALITY = 4,	  /* optional: near against far GPU */
};

enum gd_plan_launcher {
	GD_LAUNCH_SSH,
	GD_LAUNCH_PDSH,
	GD_LAUNCH_CLUSH,
	GD_LAUNCH_LOCAL,
};

/* One intended GPU/NIC association of a server (indexed by GPU). */
struct gd_plan_assoc {
	int rail;
	char nic[GD_PLAN_NAME_MAX];
};

struct gd_plan_host {
	char name[GD_PLAN_NAME_MAX];
	char rack[GD_PLAN_NAME_MAX]; /* "" when no rack was given */
	struct gd_plan_assoc *assoc; /* gpus_per_server entries */
};

/* Where the seconds per execution come from (gd_plan_seconds_resolve). */
enum gd_plan_seconds_src {
	GD_SECONDS_DURATION, /* --seconds, written as each run's -D */
	GD_SECONDS_TOOL_D,   /* --tool-args' own -D x the run's steps */
	GD_SECONDS_ITERS,    /* --seconds, a guess: --tool-args give -n */
	GD_SECONDS_NO_D,     /* --seconds, a guess: the tool has no -D */
	GD_SECONDS_FROM,     /* --seconds-from: a run's time account */
};

struct gd_plan_cfg {
	long servers;
	long gpus_per_server;
	long rails;
	long repeats;	  /* --campaign-repeats: runs of each round-1 lane */
	long tool_repeat; /* --repeat=N in every run (rounds per run) */
	long run_limit_s; /* stop a run after this long; 0: never */
	double nic_Gbps;  /* nominal line rate, 10^9 bit/s */
	double seconds;	  /* per execution */
	/* --seconds-from: the run document whose time account gave
	 * @seconds ("" when --seconds or the default did), and the share of
	 * that run's wall time in measured windows */
	char seconds_from[GD_PLAN_ARGS_MAX];
	double seconds_from_window_share;
	/* what a run is made of: sizes x phases x rounds measured one after
	 * another, each for -D seconds (run_duration_s; 0: gd_plan writes
	 * no -D) */
	enum gd_plan_seconds_src seconds_src;
	long run_steps, run_sizes, run_phases;
	long run_duration_s;
	char name[GD_PLAN_NAME_MAX];
	char host_prefix[GD_PLAN_NAME_MAX];
	char nic_prefix[GD_PLAN_NAME_MAX];
	char tool[GD_PLAN_NAME_MAX];
	char gpu_mem[GD_PLAN_NAME_MAX];	  /* "cuda", "none", or a --mem spec */
	char tool_args[GD_PLAN_ARGS_MAX]; /* passed verbatim to every run */
	char results_dir[GD_PLAN_ARGS_MAX];
	/* --auth-key=PATH in every run; the operator puts the file there */
	char auth_key[GD_PLAN_ARGS_MAX];
	char loopback_host[GD_PLAN_NAME_MAX]; /* "" unless every server is it */
	long gid_index;			      /* -1: let the tool choose */
	long base_port;
	enum gd_plan_launcher launcher;
	bool locality_round; /* round 4: device:near against device:far */
	bool seconds_given;  /* --seconds (or its config key) was given */
	bool repeats_alias;  /* the deprecated --repeats was used */
};

/* One directed pair-test execution. Direction a_to_b: the client
 * (initiator) runs on server a, the listening server side on b. */
struct gd_plan_exec {
	int round;
	int step; /* 1-based within the round */
	int a, b; /* host indices, a < b */
	int gpu;
	int rail;
	bool b_to_a;
	int repeat; /* 1-based */
	int port;
	char id[GD_PLAN_NAME_MAX * 2 + 32];
};

struct gd_plan_step {
	int round;
	int step;
	int n_pairs;
	int (*pairs)[2];
	int bye;	  /* host index sitting out, or -1 */
	bool b_to_a_only; /* concurrency steps run one direction */
	bool a_to_b_only;
};

struct gd_worksheet {
	long gpus;
	long associations;
	long pairs_per_step; /* floor(servers / 2) */
	long pair_slots;     /* pairs in round 1, bye pair included */
	long round1_steps;
	long lanes_per_pair; /* rails x GPUs per rail */
	long executions;
	double serial_hours;
	double concurrent_minutes;
	double port_GBps; /* decimal: 10^9 bytes/s */
	double server_GBps;
	double endpoint_TBps;
};

struct gd_plan {
	struct gd_plan_cfg cfg;
	struct gd_plan_host *hosts;
	bool have_racks;
	bool hosts_generated; /* no --hosts: names from --host-prefix */
	struct gd_plan_step *steps;
	size_t n_steps;
	struct gd_plan_exec *execs;
	size_t n_execs;
	struct gd_worksheet ws;
};

/* plan.c */
void gd_plan_cfg_defaults(struct gd_plan_cfg *cfg);
/* Parse one "key" option value into @cfg; -EINVAL with the option named. */
/* plan_seconds.c: --seconds-from RUN.json, the seconds per execution from
 * that run's time_account.wall_s; -EINVAL naming the file and the fix. */
int gd_plan_seconds_from(struct gd_plan_cfg *c, const char *path);
/* After every option: the seconds per execution from the commands gd_plan
 * will write (-D from --seconds, or --tool-args' own -D), so the worksheet's
 * hours are those of the runs; -EINVAL naming a bad --tool-args value. */
int gd_plan_seconds_resolve(struct gd_plan_cfg *c);
const char *gd_plan_seconds_src_name(enum gd_plan_seconds_src src);
int gd_plan_cfg_set(struct gd_plan_cfg *cfg, const char *key,
		    const char *value);
int gd_plan_cfg_load(struct gd_plan_cfg *cfg, const char *path);
int gd_plan_cfg_check(const struct gd_plan_cfg *cfg);
/* The run limit in seconds (0: none), the default resolved. */
long gd_plan_run_limit(const struct gd_plan_cfg *cfg);
int gd_plan_hosts_default(struct gd_plan *plan);
int gd_plan_hosts_load(struct gd_plan *plan, const char *path);
void gd_plan_worksheet(const struct gd_plan_cfg *cfg, struct gd_worksheet *ws);
void gd_plan_free(struct gd_plan *plan);
const char *gd_plan_round_name(int round);
/* Values like 6.4 or 24 printed without trailing zeros. */
void gd_plan_fmt_num(char *buf, size_t len, double v);

/* schedule.c */
/* Circle-method step @step (0-based) of a round robin over @n servers:
 * fills @pairs (n/2 entries), returns the pair count; *bye = -1 or the
 * server sitting out when @n is odd. */
int gd_sched_circle(int n, int step, int (*pairs)[2], int *bye);
int gd_sched_circle_steps(int n);
int gd_plan_build(struct gd_plan *plan);

/* plan_out.c */
int gd_plan_print_worksheet(const struct gd_plan *plan, FILE *f);
struct json_object *gd_plan_to_json(const struct gd_plan *plan);
int gd_plan_write_json(const struct gd_plan *plan, const char *path);
int gd_plan_write_csv(const struct gd_plan *plan, const char *path);

/* plan_launch.c */
enum gd_plan_side { GD_SIDE_SERVER, GD_SIDE_CLIENT, GD_SIDE_LOOPBACK };
int gd_plan_client_host(const struct gd_plan_exec *e);
int gd_plan_server_host(const struct gd_plan_exec *e);
/* One side's command line into @buf (GD_PLAN_CMD_MAX bytes). */
void gd_plan_run_cmd(const struct gd_plan *plan, const struct gd_plan_exec *e,
		     enum gd_plan_side side, char *buf);
int gd_plan_write_commands(const struct gd_plan *plan, const char *path);
/* gd_doctor beside the plan's benchmark (--tool's directory), else the
 * name alone, found on the nodes' PATH. */
void gd_plan_doctor_path(const struct gd_plan *plan, char *buf, size_t len);

/* plan_check.c: each distinct command line of the plan through the
 * benchmark's own --dry-run (found as --tool says, beside gd_plan, or on
 * PATH); -EINVAL with the benchmark's refusal when a run would be refused. */
int gd_plan_check_runs(const struct gd_plan *plan);
/* "(node01..node32 are generated ...)", the words the worksheet and the
 * launch files say it in, "" with a --hosts list. */
void gd_plan_generated_note(const struct gd_plan *plan, char *buf, size_t len);

/* plan_slurm.c: the batch script @path and, next to it, its steps file
 * (@path with .sbatch replaced by .steps). */
int gd_plan_write_slurm(const struct gd_plan *plan, const char *path);

#endif
