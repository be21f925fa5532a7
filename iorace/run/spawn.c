/* iorace-spawn: run a list of programs one after another and report exactly what each cost, like GNU time.
 *
 * Why a C launcher and not Python's fork: Linux carries the memory high-water
 * mark of the process that exec()s into the new program's ru_maxrss. Forked from
 * the ~100 MB Python harness, every variant would report >= 100 MB max RSS. This
 * launcher is tiny, so the program it starts begins from a tiny mark.
 *
 * Why a list (a whole round, or a whole measuring phase): the harness (Python,
 * its threads, its temporary files) stays asleep in wait4 until the list is
 * done, so nothing of it runs between two timed runs or beside them. Each run
 * is timed here with CLOCK_MONOTONIC around posix_spawn and wait4, as
 * hyperfine -N times a command.
 *
 * Nothing a program starts outlives its run: the launcher is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so whatever a program leaves behind (a forked
 * child, a setsid() daemon) becomes the launcher's child when its parent ends;
 * after each run the launcher SIGKILLs the run's process group and every child
 * it still has, and reaps until none is left (wait says ECHILD). A run past its
 * timeout has its process group SIGKILLed by a SIGALRM handler.
 *
 * usage: iorace-spawn PLAN REPORT
 * PLAN is a file of NUL-terminated fields:
 *   "iorace-plan-2" ERRDIR NJOBS
 *   then per job: CWD STDOUT(null|pipe|inherit) TIMEOUT_MS CPUS NARGV ARGV... NENV ENV...
 *   (CPUS: the CPUs a run is confined to, "0,3", or "" for wherever the kernel puts it: see struct job)
 *   then NSCHED and NSCHED job numbers: the order in which runs happen.
 * Run number i (0-based, in schedule order) writes its stderr to ERRDIR/i.
 * REPORT starts with a header line naming its fields, then gets one line per run, written as each ends:
 *   i job wall_ns user_ns sys_ns max_rss_kb minflt majflt nvcsw nivcsw exit_code timed_out leftovers
 * (REPORT_FIELDS below; exit_code: negative for a signal, as Python's os.waitstatus_to_exitcode says;
 * leftovers: processes the run left behind, all killed), or "i job skipped" for a run of a job whose
 * earlier run failed (non-zero exit, a signal, a timeout): it is not run again.
 * Exit status: 0 when every run was attempted, 2 on a usage or plan error, 143 when stopped by a signal
 * (SIGTERM/SIGINT/SIGHUP: the current run is killed and its leftovers reaped first; it gets no line).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { OUT_NULL, OUT_PIPE, OUT_INHERIT };

/* A run's line of the report after "i job": each field's name and value, in order. The header line prints
 * the names, and the harness maps each value by its name onto the field of Run (iorace/store/run.py) that has it: a new
 * value (another rusage figure) is one line here and one field declared there. */
#define REPORT_FIELDS(F)                                                                        \
  F(wall_ns, wall) F(user_ns, tv_ns(ru.ru_utime)) F(sys_ns, tv_ns(ru.ru_stime))                \
  F(max_rss_kb, ru.ru_maxrss) F(minflt, ru.ru_minflt) F(majflt, ru.ru_majflt)                  \
  F(nvcsw, ru.ru_nvcsw) F(nivcsw, ru.ru_nivcsw)                                                \
  F(exit_code, exit_code) F(timed_out, killed) F(leftovers, leftovers)                        \
  F(host_busy_ns, host_ns(after.busy, before.busy)) F(host_steal_ns, host_ns(after.steal, before.steal))
#define FIELD_NAME(name, value) " " #name
#define FIELD_VALUE(name, value) fprintf(report, " %lld", (long long)(value));

struct job {
  const char *cwd;
  int out;
  long timeout_ms;
  /* The CPUs its runs are confined to (a suite's [one_cpu]): the launcher takes that affinity just before it
   * starts the program, which inherits it (and so do the program's own children: a pipe config's server), and
   * takes its own back once the run is reaped; both outside the timed window. */
  int confined;
  cpu_set_t cpus;
  char **argv;
  char **env;
  int failed;
};

static volatile sig_atomic_t current_pgid = 0;
static volatile sig_atomic_t timed_out = 0;
static volatile sig_atomic_t stop_signal = 0;

static void on_alarm(int sig) {
  (void)sig;
  timed_out = 1;
  if (current_pgid > 0) kill(-current_pgid, SIGKILL);
}

static void on_stop(int sig) {
  stop_signal = sig;
  if (current_pgid > 0) kill(-current_pgid, SIGKILL);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv) { return (long long)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

/* The whole machine's CPU time from /proc/stat's "cpu" line, in clock ticks: busy (user, nice, system, irq,
 * softirq; not nice while iorace's idle spinners run, which spin at nice 19: run/spinners.py) and stolen by
 * the hypervisor (steal). Read just before and just after each run, outside its timed
 * window: the busy time less the run's own user + system time is what the rest of the machine used while it
 * ran, so a contended run is seen, not guessed. A tick is 10 ms (USER_HZ), coarse for one short run but
 * unbiased: the harness adds it up over a session's runs. -1 where /proc/stat cannot be read. */
struct host {
  long long busy, steal;
};
static int stat_fd = -1;
static long long tick_ns = 0;

static int ignore_nice = 0; /* IORACE_SPAWN_IGNORE_NICE=1: iorace's idle spinners (nice 19) fill the nice column */

static struct host host_ticks(void) {
  struct host h = {-1, -1};
  char buf[256];
  if (stat_fd < 0 || lseek(stat_fd, 0, SEEK_SET) < 0) return h;
  ssize_t n = read(stat_fd, buf, sizeof buf - 1);
  if (n <= 0) return h;
  buf[n] = 0;
  unsigned long long v[8];
  if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
    h.busy = (long long)(v[0] + (ignore_nice ? 0 : v[1]) + v[2] + v[5] + v[6]);
    h.steal = (long long)v[7];
  }
  return h;
}

static long long host_ns(long long after, long long before) {
  return after < 0 || before < 0 || tick_ns <= 0 ? -1 : (after - before) * tick_ns;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "iorace-spawn: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(2);
}

/* The plan: one buffer, fields split at NULs. */
static char *plan, *plan_end, *cursor;

static const char *field(void) {
  if (cursor >= plan_end) die("truncated plan", NULL);
  const char *f = cursor;
  cursor += strlen(cursor) + 1;
  return f;
}

static long number(void) {
  const char *f = field();
  char *end;
  errno = 0;
  long v = strtol(f, &end, 10);
  if (errno || *end || end == f || v < 0) die("bad number in plan", f);
  return v;
}

static char **strings(void) {
  long n = number();
  char **v = calloc((size_t)n + 1, sizeof *v);
  if (!v) die("out of memory", NULL);
  for (long i = 0; i < n; i++) v[i] = (char *)field();
  return v;
}

static void read_plan(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) < 0) die("cannot read plan", strerror(errno));
  plan = malloc((size_t)st.st_size + 1);
  if (!plan) die("out of memory", NULL);
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t n = read(fd, plan + got, (size_t)st.st_size - got);
    if (n <= 0) die("cannot read plan", n < 0 ? strerror(errno) : "short read");
    got += (size_t)n;
  }
  close(fd);
  plan[got] = '\0';
  plan_end = plan + got;
  cursor = plan;
}

/* Kill every child this launcher has (orphans reparented to it as a subreaper); return how many. */
static int kill_children(void) {
  int killed = 0;
  DIR *tasks = opendir("/proc/self/task");
  int found_children_file = 0;
  if (tasks) {
    struct dirent *t;
    while ((t = readdir(tasks))) {
      if (t->d_name[0] == '.') continue;
      char path[300];
      snprintf(path, sizeof path, "/proc/self/task/%s/children", t->d_name);
      FILE *f = fopen(path, "re");
      if (!f) continue;
      found_children_file = 1;
      long pid;
      while (fscanf(f, "%ld", &pid) == 1)
        if (kill((pid_t)pid, SIGKILL) == 0) killed++;
      fclose(f);
    }
    closedir(tasks);
  }
  if (found_children_file) return killed;
  /* No /proc/.../children (CONFIG_PROC_CHILDREN off): find our children by their parent pid. */
  DIR *proc = opendir("/proc");
  if (!proc) return killed;
  pid_t self = getpid();
  struct dirent *d;
  while ((d = readdir(proc))) {
    if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", d->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');  /* the command name may hold spaces and parentheses */
    char state;
    long ppid;
    if (p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 && ppid == self)
      if (kill((pid_t)atol(d->d_name), SIGKILL) == 0) killed++;
  }
  closedir(proc);
  return killed;
}

/* After a run: kill what is left of its process group and every other descendant, reap until none is left. */
static int reap_leftovers(pid_t pgid) {
  if (pgid > 0) kill(-pgid, SIGKILL);
  int reaped = 0;
  for (;;) {
    pid_t p = waitpid(-1, NULL, WNOHANG | __WALL);
    if (p > 0) {
      reaped++;
      continue;
    }
    if (p < 0 && errno == EINTR) continue;
    if (p < 0) break; /* ECHILD: nothing left */
    kill_children();  /* live children: orphans of the run (its group was killed above) */
    while ((p = waitpid(-1, NULL, __WALL)) < 0 && errno == EINTR) {
    }
    if (p > 0) reaped++;
  }
  return reaped;
}

static void *drain(void *arg) {
  int fd = (int)(long)arg;
  static char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0 || (n < 0 && errno == EINTR)) continue;
    return NULL;
  }
}

/* "0,3" -> the job's CPU set; "" -> not confined. */
static void parse_cpus(const char *list, struct job *job) {
  CPU_ZERO(&job->cpus);
  job->confined = 0;
  for (const char *p = list; *p;) {
    char *end;
    errno = 0;
    long cpu = strtol(p, &end, 10);
    if (end == p || errno || cpu < 0 || cpu >= CPU_SETSIZE || (*end && *end != ',')) die("bad CPU list in plan", list);
    CPU_SET((int)cpu, &job->cpus);
    job->confined = 1;
    p = *end ? end + 1 : end;
  }
}

static void set_timer(long ms) {
  struct itimerval it = {{0, 0}, {ms / 1000, (ms % 1000) * 1000}};
  setitimer(ITIMER_REAL, &it, NULL);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: iorace-spawn PLAN REPORT\n");
    return 2;
  }
  prctl(PR_SET_PDEATHSIG, SIGTERM);  /* the harness died: stop too (the handler kills the current run) */
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) die("cannot become a child subreaper", strerror(errno));

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;  /* no SA_RESTART: wait4 returns EINTR, and is called again */
  sigaction(SIGALRM, &sa, NULL);
  sa.sa_handler = on_stop;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  read_plan(argv[1]);
  if (strcmp(field(), "iorace-plan-2") != 0) die("not an iorace plan (iorace-plan-2)", argv[1]);
  const char *errdir = field();
  long njobs = number();
  struct job *jobs = calloc((size_t)njobs + 1, sizeof *jobs);
  if (!jobs) die("out of memory", NULL);
  for (long j = 0; j < njobs; j++) {
    jobs[j].cwd = field();
    const char *out = field();
    jobs[j].out = !strcmp(out, "null") ? OUT_NULL : !strcmp(out, "pipe") ? OUT_PIPE : !strcmp(out, "inherit")
                  ? OUT_INHERIT : (die("bad stdout in plan", out), 0);
    jobs[j].timeout_ms = number();
    parse_cpus(field(), &jobs[j]);
    jobs[j].argv = strings();
    jobs[j].env = strings();
    if (!jobs[j].argv[0]) die("a job without a command", NULL);
  }
  long nsched = number();
  long *sched = calloc((size_t)nsched + 1, sizeof *sched);
  if (!sched) die("out of memory", NULL);
  for (long i = 0; i < nsched; i++)
    if ((sched[i] = number()) >= njobs) die("schedule names no job", NULL);

  const char *stat_path = getenv("IORACE_SPAWN_PROC_STAT"); /* tests: a file standing in for /proc/stat */
  stat_fd = open(stat_path && *stat_path ? stat_path : "/proc/stat", O_RDONLY | O_CLOEXEC);
  const char *no_nice = getenv("IORACE_SPAWN_IGNORE_NICE");
  ignore_nice = no_nice && strcmp(no_nice, "1") == 0;
  long hz = sysconf(_SC_CLK_TCK);
  tick_ns = hz > 0 ? 1000000000LL / hz : 0;

  FILE *report = fopen(argv[2], "we");
  if (!report) die("cannot write report", strerror(errno));
  fputs("i job" REPORT_FIELDS(FIELD_NAME) "\n", report);
  fflush(report);
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) die("cannot open /dev/null", strerror(errno));
  sigset_t empty;
  sigemptyset(&empty);
  cpu_set_t own_cpus;
  if (sched_getaffinity(0, sizeof own_cpus, &own_cpus) < 0) die("cannot read its CPU affinity", strerror(errno));

  for (long i = 0; i < nsched && !stop_signal; i++) {
    struct job *job = &jobs[sched[i]];
    if (job->failed) {
      fprintf(report, "%ld %ld skipped\n", i, sched[i]);
      fflush(report);
      continue;
    }
    char errpath[4096];
    snprintf(errpath, sizeof errpath, "%s/%ld", errdir, i);
    int errfd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (errfd < 0) die("cannot create a stderr file", strerror(errno));
    int pipefd[2] = {-1, -1};
    pthread_t drainer;
    if (job->out == OUT_PIPE && pipe2(pipefd, O_CLOEXEC) < 0) die("cannot make a pipe", strerror(errno));

    /* Everything the child needs is prepared outside the timed window. */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, devnull, 0);
    if (job->out == OUT_NULL) posix_spawn_file_actions_adddup2(&fa, devnull, 1);
    if (job->out == OUT_PIPE) posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errfd, 2);
    if (job->cwd[0]) posix_spawn_file_actions_addchdir_np(&fa, job->cwd);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);  /* its own process group: a timeout kills everything in it */
    posix_spawnattr_setsigmask(&at, &empty);
    sigset_t dfl;
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    posix_spawnattr_setsigdefault(&at, &dfl);
    timed_out = 0;
    if (job->confined && sched_setaffinity(0, sizeof job->cpus, &job->cpus) < 0)
      die("cannot confine a run to its CPUs", strerror(errno));

    /* The timeout is armed before the clock starts, so no system call but the spawn and the wait is timed
     * (as in hyperfine -N); an alarm that fires before the child's group is known is acted on just after. */
    if (job->timeout_ms > 0) set_timer(job->timeout_ms);
    struct host before = host_ticks();
    long long start = now_ns();
    pid_t pid;
    int err = posix_spawn(&pid, job->argv[0], &fa, &at, job->argv, job->env);
    if (err == 0) {
      current_pgid = pid;
      if (timed_out) kill(-pid, SIGKILL);
    }
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    long long wall = 0;
    if (err == 0) {
      if (pipefd[1] >= 0) {
        close(pipefd[1]);
        pthread_create(&drainer, NULL, drain, (void *)(long)pipefd[0]);
      }
      while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) die("wait4 failed", strerror(errno));
      }
      wall = now_ns() - start;
      set_timer(0);
    } else {
      set_timer(0);
      dprintf(errfd, "iorace-spawn: cannot execute %s: %s\n", job->argv[0], strerror(err));
      status = 127 << 8;  /* as a shell says "command not found" */
      if (pipefd[1] >= 0) close(pipefd[1]);
    }
    if (job->confined && sched_setaffinity(0, sizeof own_cpus, &own_cpus) < 0)
      die("cannot take back its CPU affinity", strerror(errno));
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(errfd);
    struct host after = host_ticks();
    int leftovers = reap_leftovers(err == 0 ? pid : 0);
    current_pgid = 0;
    if (err == 0 && pipefd[0] >= 0) pthread_join(drainer, NULL);
    if (pipefd[0] >= 0) close(pipefd[0]);
    /* A run the stop killed was not made: no line for it, so the harness reads it as interrupted, not as a
     * cell that failed (killed by SIGKILL). One that ended on its own before the stop keeps its line. */
    if (stop_signal && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) break;
    int killed = timed_out && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    if (killed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) job->failed = 1;
    int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? -WTERMSIG(status) : status;
    fprintf(report, "%ld %ld", i, sched[i]);
    REPORT_FIELDS(FIELD_VALUE)
    fputc('\n', report);
    fflush(report);
  }
  fclose(report);
  return stop_signal ? 128 + SIGTERM : 0;
}
