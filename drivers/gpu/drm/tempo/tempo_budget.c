// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Buffer budgets
 *
 * Buffers cost their creator little until their pages are allocated, yet
 * each takes device-wide resources: its fake mmap offset, in a range of
 * the DRM device that every file shares (1 TiB on 64-bit kernels), and,
 * once mapped on the GPU or the CPU, all its pages, pinned while mapped
 * and kept in its shmem file after, which no process's RSS shows and
 * which the OOM killer therefore cannot trace to anyone. Without bounds
 * one user could take the whole offset range with untouched buffers, or
 * most of the RAM with resident ones, and every other user's allocations
 * would fail.
 *
 * So each buffer is counted, from its creation to its free, against two
 * budgets: its creating file's (&tempo_usage.budget: buffers and bytes,
 * module parameters max_bos and max_bo_mib) and its creating file's
 * user's (&struct tempo_user: user_max_bos and user_max_bo_mib), a user
 * being the real uid of the process that opened the file, since one user
 * can open many files. The defaults let one user have 16 GiB of buffers,
 * 1/64 of the offset range; a buffer takes its offset only when one is
 * asked for (tempo_gem.c), so untouched buffers take none at all.
 *
 * From the first mapping or pin that allocates a buffer's pages until it
 * is freed, its bytes also count as resident (the shmem helpers allocate
 * all of a buffer's pages at once, and keep them in its shmem file when
 * the last mapping goes), against the device's ceiling (max_resident_mib,
 * by default half of the RAM, as TTM bounds the pages of its buffers) and
 * the share of it of the user who created the buffer (user_resident_mib,
 * by default half of the device's): one user at its share leaves the rest
 * to the others. GPU mappings (&DRM_IOCTL_TEMPO_VM_MAP, a kernel mapping
 * of the whole buffer), CPU mappings (mmap()) and pins (a dma-buf
 * importer's) are counted before they allocate. Both ceilings may be
 * changed at run time by root; lowering one below what is resident makes
 * the next first mappings fail until enough buffers are freed.
 *
 * Counters are atomic: a charge adds first and takes back what passes a
 * limit, so two racing charges may both fail near a limit, never both
 * pass it.
 *
 * The per-user entries live in a table of the device, created by a
 * user's first open and freed with the last reference, held by each of
 * the user's files and buffers (which may outlive their file).
 */

#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "tempo_drv.h"

static u64 mib(unsigned int n)
{
	return (u64)n << 20;
}

/**
 * tempo_budget_max_resident() - the device's ceiling on resident buffers
 *
 * Context: any.
 * Return: &tempo_params.max_resident_mib in bytes, or half of the RAM.
 */
u64 tempo_budget_max_resident(void)
{
	u64 max = mib(READ_ONCE(tempo_params.max_resident_mib));

	return max ?: (u64)totalram_pages() << (PAGE_SHIFT - 1);
}

/**
 * tempo_budget_user_max_resident() - one user's share of resident buffers
 *
 * Context: any.
 * Return: &tempo_params.user_resident_mib in bytes, or half of the
 * device's ceiling; never above the device's ceiling.
 */
u64 tempo_budget_user_max_resident(void)
{
	u64 device = tempo_budget_max_resident();
	u64 max = mib(READ_ONCE(tempo_params.user_resident_mib));

	return min(max ?: device / 2, device);
}

/* Add @n to @v unless the sum passes @max; true when added. */
static bool add_within(atomic64_t *v, u64 n, u64 max)
{
	if (atomic64_add_return(n, v) <= max)
		return true;
	atomic64_sub(n, v);
	return false;
}

static bool budget_take(struct tempo_budget *b, u64 size, u32 max_bos,
			u64 max_bytes)
{
	if (atomic_inc_return(&b->bos) > max_bos)
		goto err_bos;
	if (!add_within(&b->bytes, size, max_bytes))
		goto err_bos;
	return true;

err_bos:
	atomic_dec(&b->bos);
	return false;
}

static void budget_drop(struct tempo_budget *b, u64 size)
{
	atomic64_sub(size, &b->bytes);
	atomic_dec(&b->bos);
}

/**
 * tempo_budget_charge_bo() - count a new buffer against its file's budgets
 * @tfile: the file that creates it
 * @size: its size
 *
 * On success the buffer holds a reference on the file's usage counters
 * and on its user until tempo_budget_uncharge_bo().
 *
 * Context: process.
 * Return: 0, or -ENOSPC when the file or its user has no room for it.
 */
int tempo_budget_charge_bo(struct tempo_file *tfile, u64 size)
{
	const struct tempo_params *p = &tempo_params;
	struct tempo_device *tdev = tfile->tdev;

	/* Root may change the counts at run time. */
	if (TEMPO_IOCTL_DBG(tdev, !budget_take(&tfile->usage->budget, size,
					       READ_ONCE(p->max_bos),
					       mib(p->max_bo_mib))))
		return -ENOSPC;
	if (TEMPO_IOCTL_DBG(tdev, !budget_take(&tfile->user->budget, size,
					       READ_ONCE(p->user_max_bos),
					       mib(p->user_max_bo_mib))))
		goto err_file;
	tempo_usage_get(tfile->usage);
	kref_get(&tfile->user->refcount);
	return 0;

err_file:
	budget_drop(&tfile->usage->budget, size);
	return -ENOSPC;
}

/**
 * tempo_budget_uncharge_bo() - a buffer counted by tempo_budget_charge_bo()
 *	is gone
 * @usage: its file's usage counters
 * @user: its file's user
 * @size: its size
 *
 * Drops the references the charge took.
 *
 * Context: process.
 */
void tempo_budget_uncharge_bo(struct tempo_usage *usage,
			      struct tempo_user *user, u64 size)
{
	budget_drop(&user->budget, size);
	budget_drop(&usage->budget, size);
	tempo_user_put(user);
	tempo_usage_put(usage);
}

/**
 * tempo_budget_charge_pages() - count a buffer's pages as resident
 * @usage: its file's usage counters
 * @user: its file's user
 * @size: its size
 *
 * Once per buffer, before its pages are first allocated; undone when the
 * buffer is freed.
 *
 * Context: process.
 * Return: 0, or -ENOMEM when the user's share or the device's ceiling of
 * resident buffers has no room for it.
 */
int tempo_budget_charge_pages(struct tempo_usage *usage,
			      struct tempo_user *user, u64 size)
{
	struct tempo_device *tdev = user->tdev;

	if (TEMPO_IOCTL_DBG(tdev, !add_within(&user->budget.resident, size,
					      tempo_budget_user_max_resident())))
		return -ENOMEM;
	if (TEMPO_IOCTL_DBG(tdev, !add_within(&tdev->resident, size,
					      tempo_budget_max_resident())))
		goto err_user;
	atomic64_add(size, &usage->budget.resident);
	return 0;

err_user:
	atomic64_sub(size, &user->budget.resident);
	return -ENOMEM;
}

/**
 * tempo_budget_uncharge_pages() - a resident buffer was freed
 * @usage: its file's usage counters
 * @user: its file's user
 * @size: its size
 *
 * Context: any.
 */
void tempo_budget_uncharge_pages(struct tempo_usage *usage,
				 struct tempo_user *user, u64 size)
{
	atomic64_sub(size, &usage->budget.resident);
	atomic64_sub(size, &user->tdev->resident);
	atomic64_sub(size, &user->budget.resident);
}

/**
 * tempo_user_get() - the calling process's user, referenced
 * @tdev: the device
 *
 * Keyed by the real uid, as the kernel's per-user limits are.
 *
 * Context: process; takes the device's table lock.
 * Return: the user, or an ERR_PTR().
 */
struct tempo_user *tempo_user_get(struct tempo_device *tdev)
{
	kuid_t uid = current_uid();
	struct tempo_user *user;
	int ret;

	mutex_lock(&tdev->users_lock);
	user = xa_load(&tdev->users, __kuid_val(uid));
	if (user) {
		kref_get(&user->refcount);
		goto out;
	}
	user = kzalloc(sizeof(*user), GFP_KERNEL_ACCOUNT);
	if (!user) {
		user = ERR_PTR(-ENOMEM);
		goto out;
	}
	kref_init(&user->refcount);
	user->tdev = tdev;
	user->uid = uid;
	ret = xa_err(xa_store(&tdev->users, __kuid_val(uid), user,
			      GFP_KERNEL_ACCOUNT));
	if (ret) {
		kfree(user);
		user = ERR_PTR(ret);
	}
out:
	mutex_unlock(&tdev->users_lock);
	return user;
}

/* Called with the table lock held by kref_put_mutex(); releases it. */
static void user_release(struct kref *kref)
{
	struct tempo_user *user = container_of(kref, struct tempo_user,
					       refcount);
	struct tempo_device *tdev = user->tdev;

	xa_erase(&tdev->users, __kuid_val(user->uid));
	mutex_unlock(&tdev->users_lock);
	kfree(user);
}

/**
 * tempo_user_put() - drop a reference on a user
 * @user: the user
 *
 * The last reference removes it from its device's table.
 *
 * Context: process; may take the device's table lock.
 */
void tempo_user_put(struct tempo_user *user)
{
	kref_put_mutex(&user->refcount, user_release, &user->tdev->users_lock);
}
