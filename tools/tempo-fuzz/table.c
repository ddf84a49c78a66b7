// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one table of what each ioctl may return.
 *
 * The tempo entries are the errnos uapi/drm/tempo_drm.h documents for each
 * ioctl (plus -EFAULT and -E2BIG where the ioctl reads a user array or an
 * extension chain: the header's general ABI rules). The DRM core entries
 * are what drivers/gpu/drm/drm_syncobj.c and drm_gem.c of the 6.12 kernel
 * return. On top of those, fz_always_allowed lists what any ioctl may
 * return under memory pressure or when a signal arrives, and an argument
 * pointer that cannot be copied makes -EFAULT acceptable anywhere.
 *
 * A completed job's fence is checked against the job errors of the
 * "Emulated hardware" section of the header (FZ_FENCE).
 */
#include <errno.h>
#include <sys/ioctl.h>

#include "fuzz.h"

const int fz_always_allowed[] = { ENOMEM, EINTR, EAGAIN, 0 };

#define OP(id, req, ...) \
	[id] = { .name = &#id[3], .request = req, .allowed = { __VA_ARGS__, 0 } }

const struct fz_op_desc fz_ops[FZ_NUM_OPS] = {
	OP(FZ_QUERY, DRM_IOCTL_TEMPO_QUERY, EINVAL, EFAULT),
	OP(FZ_BO_CREATE, DRM_IOCTL_TEMPO_BO_CREATE, EINVAL, ENOSPC),
	OP(FZ_BO_MMAP_OFFSET, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, ENOENT, EINVAL,
	   ENOSPC),
	OP(FZ_VM_MAP, DRM_IOCTL_TEMPO_VM_MAP, EINVAL, ENOSPC, ENOENT),
	OP(FZ_VM_UNMAP, DRM_IOCTL_TEMPO_VM_UNMAP, ENOENT, EINVAL),
	OP(FZ_CTX_CREATE, DRM_IOCTL_TEMPO_CTX_CREATE, EINVAL, EACCES, EFAULT,
	   E2BIG, ENODEV, ENOSPC),
	OP(FZ_CTX_DESTROY, DRM_IOCTL_TEMPO_CTX_DESTROY, ENOENT, EINVAL),
	OP(FZ_CTX_GET_PARAM, DRM_IOCTL_TEMPO_CTX_GET_PARAM, ENOENT, EINVAL),
	OP(FZ_CTX_SET_PARAM, DRM_IOCTL_TEMPO_CTX_SET_PARAM, ENOENT, EINVAL,
	   EACCES),
	OP(FZ_EXEC, DRM_IOCTL_TEMPO_EXEC, EINVAL, ENOENT, ECANCELED, EFAULT,
	   E2BIG),
	OP(FZ_SCHED, DRM_IOCTL_TEMPO_SCHED, EINVAL, EACCES, EBADF, ENOENT),
	OP(FZ_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, EINVAL),
	OP(FZ_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_CREATE, EINVAL),
	OP(FZ_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_DESTROY, EINVAL),
	OP(FZ_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_WAIT, EINVAL, ENOENT, EFAULT,
	   ETIME),
	OP(FZ_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_RESET, EINVAL, ENOENT, EFAULT),
	OP(FZ_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_SIGNAL, EINVAL, ENOENT, EFAULT),
	OP(FZ_SYNCOBJ_TIMELINE_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	   EINVAL, ENOENT, EFAULT),
	/* Plus the set of the ioctl the number belongs to. */
	OP(FZ_RAW_SIZE, 0, EINVAL, EFAULT),
	OP(FZ_RAW_UNKNOWN, 0, EINVAL),
	OP(FZ_FENCE, 0, EFAULT, EILSEQ, ELOOP, ETIMEDOUT, ECANCELED, ESRCH),
};

static bool in_list(const int *list, int err)
{
	for (; *list; list++)
		if (*list == err)
			return true;
	return false;
}

/*
 * May @op fail with @err? Success is always acceptable except with
 * FZ_MUST_FAIL, which the caller checks.
 */
bool fz_errno_allowed(enum fz_op op, int err, unsigned int flags)
{
	if (!err)
		return true;
	if (op != FZ_FENCE && in_list(fz_always_allowed, err))
		return true;
	if ((flags & FZ_BAD_ARG) && err == EFAULT)
		return true;
	return in_list(fz_ops[op].allowed, err);
}

/* The entry of a tempo ioctl number (DRM_COMMAND_BASE + 0x00..0x0a). */
enum fz_op fz_op_of_nr(unsigned int nr)
{
	for (int op = 0; op < FZ_NUM_OPS; op++) {
		if (!fz_ops[op].request)
			continue;
		if (_IOC_NR(fz_ops[op].request) == nr &&
		    nr >= DRM_COMMAND_BASE)
			return (enum fz_op)op;
	}
	return FZ_RAW_UNKNOWN;
}
