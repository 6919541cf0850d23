// SPDX-License-Identifier: GPL-2.0
/*
 * affsched.ko - debugfs interface to affsched (lock-hold-ratio driven
 * affinity scheduling).
 *
 * Creates /sys/kernel/debug/affsched/ with:
 *   enable    0 or 1: switch the feature off or on (rw)
 *   <tunable> one file per tunable, decimal in the tunable's unit (rw)
 *   tunables  name, value, unit, min, max and default of each tunable (ro)
 *   stats     one "name value" line per event counter (ro)
 *   groups    one line per live lock group: hashed id, lock kind, members,
 *             hold ratio u (permille), useful parallelism n (CPUs),
 *             estimator windows, state, sub-domain CPUs, owning uid (ro)
 *   reserved  CPUs held by all sub-domains, as a CPU list (ro)
 *   scope     the cgroup (v2 path) whose tasks may form groups, "/" for
 *             all tasks (rw)
 *
 * All state lives in the kernel (kernel/sched/affsched*.c); this module only
 * reads and writes it through the exported interface.  A write that is not
 * a valid value fails with -EINVAL and changes nothing.  Unloading the
 * module switches the feature off, restores the default tunables and the
 * scope and removes every file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#if !__has_include(<linux/sched/affsched.h>)
#error "this kernel tree lacks the affsched series: apply patches/ to it first"
#endif
#include <linux/sched/affsched.h>
#ifndef CONFIG_SCHED_AFFSCHED
#error "this kernel is configured without CONFIG_SCHED_AFFSCHED=y"
#endif

/*
 * The kernel interface is linked like any other: the functions exported by
 * kernel/sched/affsched*.c, whose CRCs in Module.symvers (CONFIG_MODVERSIONS)
 * the loader checks, so that a module built against another version of the
 * interface is refused ("disagrees about version of symbol") and one loaded
 * into a kernel without the series fails with "Unknown symbol".
 */

static struct dentry *affsched_dir;

/* Longest decimal u64 plus newline and NUL. */
#define VAL_BUF_LEN	24

static ssize_t read_u64(char __user *ubuf, size_t count, loff_t *ppos, u64 val)
{
	char buf[VAL_BUF_LEN];
	int len = scnprintf(buf, sizeof(buf), "%llu\n", val);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t enable_read(struct file *file, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	return read_u64(ubuf, count, ppos, affsched_enabled());
}

static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	ret = affsched_set_enabled(val);
	return ret ? ret : count;
}

static const struct file_operations enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

/* The tunable's id is the file's private data (inode->i_private). */
static unsigned int tunable_id(struct file *file)
{
	return (uintptr_t)file_inode(file)->i_private;
}

static ssize_t tunable_read(struct file *file, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	u64 val;
	int ret;

	ret = affsched_tunable_get(tunable_id(file), &val);
	if (ret)
		return ret;
	return read_u64(ubuf, count, ppos, val);
}

static ssize_t tunable_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	u64 val;
	int ret;

	ret = kstrtou64_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	ret = affsched_tunable_set(tunable_id(file), val);
	return ret ? ret : count;
}

static const struct file_operations tunable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = tunable_read,
	.write = tunable_write,
	.llseek = default_llseek,
};

static int tunables_show(struct seq_file *m, void *v)
{
	const struct affsched_tunable_desc *d;
	unsigned int i;
	u64 val;

	seq_puts(m, "name value unit min max default\n");
	for (i = 0; (d = affsched_tunable_desc(i)); i++) {
		if (affsched_tunable_get(i, &val))
			continue;
		seq_printf(m, "%s %llu %s %llu %llu %llu\n", d->name, val,
			   d->unit, d->min, d->max, d->def);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tunables);

static int stats_show(struct seq_file *m, void *v)
{
	struct affsched_stats st;
	const char *name;
	unsigned int i;

	affsched_stats_snapshot(&st);
	for (i = 0; i < AFFSCHED_NR_STATS && (name = affsched_stat_name(i)); i++)
		seq_printf(m, "%s %llu\n", name, st.val[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/*
 * groups: a header line, then one line per group, in table order:
 *   id kind members u_permille n windows state cpus uid
 * id is the hashed lock address, never the address; cpus is the group's
 * sub-domain as a CPU list ("0-1,4"), "-" when it has none; uid is the
 * real uid of the task that started the group, whose max_reserved_user
 * the sub-domain counts against.
 */
static int groups_show(struct seq_file *m, void *v)
{
	struct affsched_group_info *gi;
	unsigned int i, nr;

	/* struct cpumask is NR_CPUS bits: up to 64 KB for the whole table. */
	gi = kvmalloc_array(AFFSCHED_MAX_GROUPS, sizeof(*gi), GFP_KERNEL);
	if (!gi)
		return -ENOMEM;
	nr = affsched_groups_snapshot(gi, AFFSCHED_MAX_GROUPS);
	seq_puts(m, "id kind members u_permille n windows state cpus uid\n");
	for (i = 0; i < nr; i++) {
		seq_printf(m, "%08x %s %u %u %u %u %s ", gi[i].id,
			   affsched_lock_kind_name(gi[i].kind), gi[i].members,
			   gi[i].u_permille, gi[i].n, gi[i].windows,
			   affsched_group_state_name(gi[i].state));
		if (cpumask_empty(&gi[i].cpus))
			seq_puts(m, "-");
		else
			seq_printf(m, "%*pbl", cpumask_pr_args(&gi[i].cpus));
		seq_printf(m, " %u\n", gi[i].uid);
	}
	kvfree(gi);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(groups);

/*
 * reserved: the CPUs that the sub-domains of all groups hold, as a CPU
 * list, or an empty line when none is placed.
 */
static int reserved_show(struct seq_file *m, void *v)
{
	cpumask_var_t mask;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	affsched_reserved_cpus(mask);
	seq_printf(m, "%*pbl\n", cpumask_pr_args(mask));
	free_cpumask_var(mask);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(reserved);

/*
 * scope: the cgroup whose tasks (with those of its descendants) may form
 * groups, as a path from the root of the cgroup v2 hierarchy ("/tenant-a"
 * for /sys/fs/cgroup/tenant-a where cgroup2 is mounted there); "/" (the
 * default) for every task.  A write takes one path, a trailing newline
 * allowed; -EINVAL if it is not absolute or names no cgroup directory,
 * and the scope is then left as it was.
 */
static ssize_t scope_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char *buf;
	int len;
	ssize_t ret;

	buf = kmalloc(PATH_MAX + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = affsched_scope_get(buf, PATH_MAX);
	if (len < 0) {
		kfree(buf);
		return len;
	}
	buf[len++] = '\n';
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kfree(buf);
	return ret;
}

static ssize_t scope_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (*ppos || !count || count >= PATH_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	ret = affsched_scope_set(buf);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations scope_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = scope_read,
	.write = scope_write,
	.llseek = default_llseek,
};

static void affsched_restore_defaults(void)
{
	const struct affsched_tunable_desc *d;
	unsigned int i;

	for (i = 0; (d = affsched_tunable_desc(i)); i++)
		affsched_tunable_set(i, d->def);
	affsched_scope_set("/");
}

static int __init affsched_module_init(void)
{
	const struct affsched_tunable_desc *d;
	unsigned int i;

	affsched_dir = debugfs_create_dir("affsched", NULL);
	if (IS_ERR(affsched_dir)) {
		pr_err("cannot create the debugfs directory (is debugfs enabled?)\n");
		return PTR_ERR(affsched_dir);
	}

	debugfs_create_file("enable", 0600, affsched_dir, NULL, &enable_fops);
	for (i = 0; (d = affsched_tunable_desc(i)); i++)
		debugfs_create_file(d->name, 0600, affsched_dir,
				    (void *)(uintptr_t)i, &tunable_fops);
	debugfs_create_file("tunables", 0400, affsched_dir, NULL, &tunables_fops);
	debugfs_create_file("stats", 0400, affsched_dir, NULL, &stats_fops);
	debugfs_create_file("groups", 0400, affsched_dir, NULL, &groups_fops);
	debugfs_create_file("reserved", 0400, affsched_dir, NULL, &reserved_fops);
	debugfs_create_file("scope", 0600, affsched_dir, NULL, &scope_fops);
	return 0;
}

static void __exit affsched_module_exit(void)
{
	/* Waits for readers and writers in flight, so nobody re-enables. */
	debugfs_remove_recursive(affsched_dir);
	affsched_set_enabled(false);
	affsched_restore_defaults();
}

module_init(affsched_module_init);
module_exit(affsched_module_exit);

MODULE_DESCRIPTION("debugfs interface to affsched, lock-hold-ratio driven affinity scheduling");
MODULE_LICENSE("GPL v2");
