/* clresample --cache-bench: how long the first use of a plan takes in a
 * new process with each combination of our disk cache and PoCL's own. */

/* Each case needs its own process: PoCL reads POCL_CACHE_DIR once, when
 * the platform starts, and a context's map would turn every later plan
 * into a memory hit. So the parent re-runs this program (argv with
 * --cache-bench-child) under changed environment variables, collects one
 * line per child and prints the table. */
#include "cli.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int cli_cache_bench_child(const cli_prb *p, cli_env *env)
{
    cli_first_use u;
    char err[600];

    if (cli_time_first_use(p, env, &u, err, sizeof err) != 0) {
        fprintf(stderr, "clresample: cache bench: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    printf("clrs-first-use %.3f %.3f %s %.4f %.4f %s\n", u.plan_ms[0],
           u.total_ms[0], u.source[0], u.plan_ms[1], u.total_ms[1],
           u.source[1]);
    return CLI_EXIT_OK;
}

/* rm -r of our own temp tree (two levels of PoCL's cache deeper). */
static void remove_tree(const char *path)
{
    char cmd[4400];
    /* The path is ours (mkdtemp under TMPDIR); quoting keeps spaces. */
    if (strchr(path, '\'') != NULL)
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "clresample: cache bench: cannot remove %s\n", path);
}

/* Runs the child with extra environment settings ("NAME=value", or
 * "NAME=" to remove NAME); parses its line into u. */
static int run_child(char **argv, const char *const *set, cli_first_use *u,
                     char src[2][16])
{
    static const char *const names[] = {"CLRS_CACHE", "CLRS_CACHE_DIR",
                                        "POCL_CACHE_DIR",
                                        "POCL_KERNEL_CACHE", "CLRS_TUNE"};
    char **envp, line[512] = "";
    size_t n = 0, i, k;
    posix_spawn_file_actions_t fa;
    int pipefd[2], status = 0, rc = -1;
    pid_t pid;
    FILE *f;

    for (; environ[n]; ++n)
        ;
    envp = calloc(n + 8, sizeof *envp);
    if (!envp)
        return -1;
    /* The inherited environment minus the variables a case controls. */
    for (i = 0, k = 0; i < n; ++i) {
        size_t v;
        int drop = 0;
        for (v = 0; v < sizeof names / sizeof names[0]; ++v)
            if (strncmp(environ[i], names[v], strlen(names[v])) == 0 &&
                environ[i][strlen(names[v])] == '=')
                drop = 1;
        if (!drop)
            envp[k++] = environ[i];
    }
    for (i = 0; set[i]; ++i)
        if (set[i][strlen(set[i]) - 1] != '=')
            envp[k++] = (char *)set[i];
    envp[k] = NULL;

    if (pipe(pipefd) != 0) {
        free(envp);
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawn_file_actions_addclose(&fa, pipefd[1]);
    if (posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp) != 0 &&
        posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(pipefd[1]);
    f = fdopen(pipefd[0], "r");
    if (!f) {
        close(pipefd[0]);
    } else {
        char buf[512];
        while (fgets(buf, sizeof buf, f))
            if (strncmp(buf, "clrs-first-use ", 15) == 0)
                snprintf(line, sizeof line, "%s", buf);
        fclose(f);
    }
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0 &&
        sscanf(line, "clrs-first-use %lf %lf %15s %lf %lf %15s",
               &u->plan_ms[0], &u->total_ms[0], src[0], &u->plan_ms[1],
               &u->total_ms[1], src[1]) == 6)
        rc = 0;
    return rc;
}

/* name, then what the case sets; "clrs"/"pocl" are the case's two
 * directories, filled by the cases before it. Every case but the last
 * two runs with CLRS_TUNE=off; "tune" then tunes the plan at creation
 * and writes the database entry that "tuned-warm" reads, so that row
 * against "warm" is what a database entry costs a plan. */
static const struct bench_case {
    const char *name, *what, *tune;
    int clrs_on, pocl_on, clear_pocl;
} cases[] = {
    {"cold", "both caches empty", "CLRS_TUNE=off", 1, 1, 0},
    {"warm", "our disk hit, PoCL's cache warm", "CLRS_TUNE=off", 1, 1, 0},
    {"pocl-only", "CLRS_CACHE=0, PoCL's cache warm", "CLRS_TUNE=off", 0, 1,
     0},
    {"warm-ours", "our disk hit, PoCL's cache empty", "CLRS_TUNE=off", 1, 1,
     1},
    {"warm-ours-only", "our disk hit, POCL_KERNEL_CACHE=0", "CLRS_TUNE=off",
     1, 0, 1},
    {"uncached", "CLRS_CACHE=0, POCL_KERNEL_CACHE=0", "CLRS_TUNE=off", 0, 0,
     0},
    {"tune", "CLRS_TUNE=run: tunes, writes entry", "CLRS_TUNE=run", 1,
     1, 0},
    {"tuned-warm", "database entry, both caches warm", "CLRS_TUNE=use", 1,
     1, 0},
};

/* The temp tree, its two cache directories and the settings naming them. */
typedef struct bench_dirs {
    char root[4096], cdir[4200], pdir[4200], e_clrs[4300], e_pocl[4300];
} bench_dirs;

static int make_dirs(bench_dirs *d)
{
    const char *tmp = getenv("TMPDIR");

    /* Absolute: the library refuses a relative CLRS_CACHE_DIR. */
    snprintf(d->root, sizeof d->root, "%s/clrs-cache-bench-XXXXXX",
             tmp && tmp[0] == '/' ? tmp : "/tmp");
    if (!mkdtemp(d->root)) {
        fprintf(stderr, "clresample: cache bench: mkdtemp %s: %s\n", d->root,
                strerror(errno));
        return -1;
    }
    snprintf(d->cdir, sizeof d->cdir, "%s/clrs", d->root);
    snprintf(d->pdir, sizeof d->pdir, "%s/pocl", d->root);
    snprintf(d->e_clrs, sizeof d->e_clrs, "CLRS_CACHE_DIR=%s", d->cdir);
    snprintf(d->e_pocl, sizeof d->e_pocl, "POCL_CACHE_DIR=%s", d->pdir);
    mkdir(d->pdir, 0700);
    return 0;
}

/* The child's argv: ours with --cache-bench-child in its place. */
static char **child_argv(int argc, char **argv)
{
    char **cargv = calloc((size_t)argc + 1, sizeof *cargv);
    int i;

    if (!cargv)
        return NULL;
    for (i = 0; i < argc; ++i)
        cargv[i] = strcmp(argv[i], "--cache-bench") == 0
                       ? (char *)"--cache-bench-child"
                       : argv[i];
    return cargv;
}

/* One case: one child process, one row of the table. */
static int run_case(const struct bench_case *c, char **cargv,
                    const bench_dirs *d)
{
    const char *set[6];
    cli_first_use u;
    char src[2][16];
    int k = 0;

    if (c->clear_pocl) {
        remove_tree(d->pdir);
        mkdir(d->pdir, 0700);
    }
    set[k++] = c->clrs_on ? d->e_clrs : "CLRS_CACHE=0";
    set[k++] = d->e_pocl;
    if (!c->pocl_on)
        set[k++] = "POCL_KERNEL_CACHE=0";
    set[k++] = c->tune;
    set[k] = NULL;
    memset(&u, 0, sizeof u);
    if (run_child(cargv, set, &u, src) != 0) {
        printf("%-15s %-35s failed\n", c->name, c->what);
        return -1;
    }
    printf("%-15s %-35s %10.1f %10.1f %-7s %10.1f %10.1f\n", c->name,
           c->what, u.plan_ms[0], u.total_ms[0], src[0], 1e3 * u.plan_ms[1],
           1e3 * u.total_ms[1]);
    fflush(stdout);
    return 0;
}

int cli_cache_bench(const cli_prb *p, const cli_run *run, int argc,
                    char **argv)
{
    bench_dirs d;
    char **cargv;
    size_t c;
    int rc = CLI_EXIT_OK;

    if (make_dirs(&d) != 0)
        return CLI_EXIT_FAIL;
    cargv = child_argv(argc, argv);
    if (!cargv) {
        remove_tree(d.root);
        return CLI_EXIT_FAIL;
    }
    printf("cache bench: %s (%s)\n", p->repro,
           run->device ? run->device : "default device");
    printf("plan = plan creation; +exec = plan creation and the first "
           "execute, waited for\n");
    printf("%-15s %-35s %10s %10s %-7s %10s %10s\n", "case", "caches",
           "plan ms", "+exec ms", "source", "hot us", "+exec us");
    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        if (run_case(&cases[c], cargv, &d) != 0)
            rc = CLI_EXIT_FAIL;
    free(cargv);
    remove_tree(d.root);
    return rc;
}
