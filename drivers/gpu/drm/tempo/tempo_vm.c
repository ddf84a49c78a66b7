// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: GPU virtual address space
 *
 * Each open file has one address space from %TEMPO_VA_START to
 * %TEMPO_VA_END. A mapping is a page-aligned range of a buffer placed at a
 * page-aligned GPU address chosen by userspace or by the kernel; it holds a
 * reference on the buffer and a kernel mapping of it, which is what
 * tempo_vm_translate() gives the hardware (through the scheduler glue's
 * MMU). Translation runs under a reader lock the hardware takes around
 * each access, so unmapping (a writer) never races with an access in
 * progress. Jobs hold a reference on the address space, so it outlives
 * the file while they run.
 *
 * The address space has a reservation object that its private buffers
 * (%DRM_TEMPO_BO_CREATE_VM_PRIVATE) share as theirs: while any of them
 * exists, each exec adds a fence to it, so that all of them read as busy
 * (fdinfo's drm-active-memory) while a job of the file is in flight, at
 * the cost of one lock per exec instead of one per buffer. Other buffers
 * are shared with explicit synchronisation only.
 *
 * That fence is not the job's: the job's finished fence is of its
 * entity's context, and the object would keep one fence per entity that
 * ever had a job in flight (thousands), which every test of a buffer
 * walks, once per buffer under a spinlock when fdinfo is read. Each
 * address space has a fence context of its own instead, a timeline: an
 * exec adds a fence of it that signals once its job and every earlier one
 * of the timeline ended. Each such fence replaces the one before in the
 * object, which holds one fence whatever the number of entities, and is
 * busy exactly while a job that used its buffers is in flight. The
 * timeline keeps its fences that have not signalled in a list, in order:
 * the end of a job marks its fence and signals the run of marked fences
 * at the head of the list, so that each job costs O(1) however they end.
 * (A dma_fence_chain per exec would order them too, but its links keep
 * every job's fence until a walk of the whole chain, as long as the jobs
 * in flight, collects them: one such walk per exec.)
 */

#include <linux/dma-fence.h>
#include <linux/iosys-map.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/**
 * tempo_vm_lock_translations() - make the address space's mappings stable
 * @vm: the address space
 *
 * Translations are valid until tempo_vm_unlock_translations(); unmapping
 * waits for them.
 *
 * Context: any; spins, never sleeps.
 */
void tempo_vm_lock_translations(struct tempo_vm *vm)
	__acquires(&vm->mm_lock)
{
	read_lock(&vm->mm_lock);
}

/**
 * tempo_vm_unlock_translations() - end of the accesses of a translation
 * @vm: the address space
 *
 * Context: any.
 */
void tempo_vm_unlock_translations(struct tempo_vm *vm)
	__releases(&vm->mm_lock)
{
	read_unlock(&vm->mm_lock);
}

/* The mapping that contains @va, or NULL; works for any 64-bit @va. */
static struct tempo_mapping *vm_find(struct tempo_vm *vm, u64 va)
{
	struct drm_mm_node *node;

	if (va < TEMPO_VA_START || va >= TEMPO_VA_END)
		return NULL;
	/* Returns the head node, not a mapping, when nothing overlaps. */
	node = __drm_mm_interval_first(&vm->mm, va, va);
	if (node == &vm->mm.head_node || node->start > va ||
	    va - node->start >= node->size)
		return NULL;
	return container_of(node, struct tempo_mapping, node);
}

/**
 * tempo_vm_translate() - the CPU address of a range of GPU addresses
 * @vm: the address space, its translations locked
 * @va: GPU address
 * @len: bytes, all in one mapping
 * @write: the access writes
 *
 * Context: between tempo_vm_lock_translations() and
 * tempo_vm_unlock_translations().
 * Return: the CPU address of [@va, @va + @len), or NULL when the range is
 * not all in one mapping, or read-only and @write is true.
 */
void *tempo_vm_translate(struct tempo_vm *vm, u64 va, u32 len, bool write)
{
	struct tempo_mapping *m;

	lockdep_assert_held_read(&vm->mm_lock);
	m = vm_find(vm, va);
	if (!m || len > m->node.start + m->node.size - va)
		return NULL;
	if (write && m->readonly)
		return NULL;
	return m->vaddr + m->bo_offset + (va - m->node.start);
}

static struct tempo_vm_resv *vm_resv_create(void)
{
	struct tempo_vm_resv *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);

	if (!r)
		return NULL;
	kref_init(&r->refcount);
	dma_resv_init(&r->resv);
	spin_lock_init(&r->fence_lock);
	r->fence_context = dma_fence_context_alloc(1);
	INIT_LIST_HEAD(&r->pending);
	return r;
}

static void vm_resv_release(struct kref *kref)
{
	struct tempo_vm_resv *r = container_of(kref, struct tempo_vm_resv,
					       refcount);

	/* Each fence of the timeline references it until it signalled. */
	WARN_ON(!list_empty(&r->pending));
	dma_resv_fini(&r->resv);
	kfree(r);
}

/**
 * struct tempo_vm_fence - a fence of an address space's timeline
 * @base: the fence, first: dma_fence_free() frees the whole
 * @lock: its lock, its own: a signalled fence may outlive the timeline
 *	when someone else holds it
 * @cb: on the job's finished fence
 * @link: in &tempo_vm_resv.pending until signalled
 * @r: the timeline's reservation object, referenced until the fence
 *	signalled: the job may be freed, and its address space with it, as
 *	soon as its finished fence reads signalled, before the callbacks
 *	on it have run
 * @ended: the job ended; guarded by &tempo_vm_resv.fence_lock
 *
 * Signals once its job and every earlier job of the timeline ended, never
 * with an error. Its last reference frees it without calling into tempo.
 */
struct tempo_vm_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	struct dma_fence_cb cb;
	struct list_head link;
	struct tempo_vm_resv *r;
	bool ended;
};

static_assert(offsetof(struct tempo_vm_fence, base) == 0);

static const char *vm_fence_driver_name(struct dma_fence *fence)
{
	return "tempo";
}

static const char *vm_fence_timeline_name(struct dma_fence *fence)
{
	return "tempo-vm";
}

static const struct dma_fence_ops tempo_vm_fence_ops = {
	.get_driver_name = vm_fence_driver_name,
	.get_timeline_name = vm_fence_timeline_name,
};

/*
 * Signal the fences at the head of the timeline whose jobs ended; return
 * how many, whose references on @r the caller drops.
 */
static u32 vm_fences_signal_locked(struct tempo_vm_resv *r)
{
	struct tempo_vm_fence *f, *next;
	u32 n = 0;

	lockdep_assert_held(&r->fence_lock);
	list_for_each_entry_safe(f, next, &r->pending, link) {
		if (!f->ended)
			break;
		list_del(&f->link);
		dma_fence_signal(&f->base);
		dma_fence_put(&f->base);
		n++;
	}
	return n;
}

static void vm_fence_job_ended(struct dma_fence *job_fence,
			       struct dma_fence_cb *cb)
{
	struct tempo_vm_fence *f = container_of(cb, struct tempo_vm_fence, cb);
	struct tempo_vm_resv *r = f->r;
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&r->fence_lock, flags);
	f->ended = true;
	n = vm_fences_signal_locked(r);
	spin_unlock_irqrestore(&r->fence_lock, flags);
	/* @r may go with the last one. */
	while (n--)
		kref_put(&r->refcount, vm_resv_release);
}

/**
 * tempo_vm_fence_alloc() - allocate the timeline fence of an exec
 *
 * For an exec that adds a fence to its address space's reservation
 * object: allocated before its point of no return, charged to the caller.
 *
 * Context: process; may sleep.
 * Return: the fence, for tempo_vm_fence_add() or tempo_vm_fence_free(),
 * or NULL when out of memory.
 */
struct tempo_vm_fence *tempo_vm_fence_alloc(void)
{
	return kzalloc(sizeof(struct tempo_vm_fence), GFP_KERNEL_ACCOUNT);
}

/**
 * tempo_vm_fence_free() - free a timeline fence that was not added
 * @f: the fence from tempo_vm_fence_alloc(), or NULL
 *
 * Context: any.
 */
void tempo_vm_fence_free(struct tempo_vm_fence *f)
{
	kfree(f);
}

/**
 * tempo_vm_fence_add() - add a job to its address space's timeline
 * @vm: the address space, its reservation object locked, a fence slot
 *	reserved in it
 * @f: the fence from tempo_vm_fence_alloc(); the timeline owns it
 * @job_fence: the job's finished fence, armed
 *
 * @f becomes the timeline's next fence and replaces the previous one in
 * the reservation object: it signals once the job and every earlier job
 * of the timeline ended. Until then it references the reservation
 * object, which may therefore be freed from the signalling of a job's
 * finished fence. Cannot fail.
 *
 * Context: process, after the exec's point of no return.
 */
void tempo_vm_fence_add(struct tempo_vm *vm, struct tempo_vm_fence *f,
			struct dma_fence *job_fence)
{
	struct tempo_vm_resv *r = vm->resv;
	unsigned long flags;

	dma_resv_assert_held(&r->resv);
	kref_get(&r->refcount);
	f->r = r;
	spin_lock_init(&f->lock);
	dma_fence_init(&f->base, &tempo_vm_fence_ops, &f->lock,
		       r->fence_context, ++r->seqno);
	/* The list's reference, until it signals. */
	spin_lock_irqsave(&r->fence_lock, flags);
	list_add_tail(&f->link, &r->pending);
	spin_unlock_irqrestore(&r->fence_lock, flags);
	dma_resv_add_fence(&r->resv, &f->base, DMA_RESV_USAGE_WRITE);
	if (dma_fence_add_callback(job_fence, &f->cb, vm_fence_job_ended))
		vm_fence_job_ended(job_fence, &f->cb);
}

/**
 * tempo_vm_create() - create an empty address space
 *
 * Context: process; may sleep.
 * Return: the address space, or NULL when out of memory.
 */
struct tempo_vm *tempo_vm_create(void)
{
	struct tempo_vm *vm = kzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);

	if (!vm)
		return NULL;
	vm->resv = vm_resv_create();
	if (!vm->resv)
		goto err_free;
	kref_init(&vm->refcount);
	mutex_init(&vm->lock);
	rwlock_init(&vm->mm_lock);
	drm_mm_init(&vm->mm, TEMPO_VA_START, TEMPO_VA_END - TEMPO_VA_START);
	return vm;

err_free:
	kfree(vm);
	return NULL;
}

/**
 * tempo_vm_get() - take a reference on an address space
 * @vm: the address space
 *
 * Context: any.
 * Return: @vm.
 */
struct tempo_vm *tempo_vm_get(struct tempo_vm *vm)
{
	kref_get(&vm->refcount);
	return vm;
}

/**
 * tempo_vm_resv_get_bo() - make a new buffer private to an address space
 * @vm: the address space
 * @obj: the buffer, just created and not yet visible to anyone
 *
 * The buffer takes the address space's reservation object as its own.
 *
 * Context: process.
 * Return: what the buffer must hand to tempo_vm_resv_put_bo() once freed.
 */
struct tempo_vm_resv *tempo_vm_resv_get_bo(struct tempo_vm *vm,
					   struct drm_gem_object *obj)
{
	struct tempo_vm_resv *r = vm->resv;

	kref_get(&r->refcount);
	atomic_inc(&r->num_bos);
	obj->resv = &r->resv;
	return r;
}

/**
 * tempo_vm_resv_put_bo() - a private buffer was freed
 * @r: what tempo_vm_resv_get_bo() returned for it
 *
 * Context: process.
 */
void tempo_vm_resv_put_bo(struct tempo_vm_resv *r)
{
	atomic_dec(&r->num_bos);
	kref_put(&r->refcount, vm_resv_release);
}

static void mapping_free(struct tempo_mapping *m)
{
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(m->vaddr);

	drm_gem_vunmap(m->obj, &map);
	drm_gem_object_put(m->obj);
	kfree(m);
}

static void vm_release(struct kref *kref)
{
	struct tempo_vm *vm = container_of(kref, struct tempo_vm, refcount);
	struct drm_mm_node *node, *next;

	drm_mm_for_each_node_safe(node, next, &vm->mm) {
		drm_mm_remove_node(node);
		mapping_free(container_of(node, struct tempo_mapping, node));
	}
	drm_mm_takedown(&vm->mm);
	mutex_destroy(&vm->lock);
	kref_put(&vm->resv->refcount, vm_resv_release);
	kfree(vm);
}

/**
 * tempo_vm_put() - drop a reference on an address space
 * @vm: the address space
 *
 * The last reference unmaps everything.
 *
 * Context: process; may sleep.
 */
void tempo_vm_put(struct tempo_vm *vm)
{
	kref_put(&vm->refcount, vm_release);
}

static bool map_args_valid(struct tempo_device *tdev,
			   const struct drm_tempo_vm_map *args, size_t bo_size)
{
	bool auto_va = args->flags & DRM_TEMPO_VM_MAP_AUTO_VA;

	if (TEMPO_IOCTL_DBG(tdev, args->flags & ~DRM_TEMPO_VM_MAP_FLAGS))
		return false;
	if (TEMPO_IOCTL_DBG(tdev, auto_va && args->va))
		return false;
	if (TEMPO_IOCTL_DBG(tdev, !PAGE_ALIGNED(args->va) ||
			    !PAGE_ALIGNED(args->bo_offset) ||
			    !PAGE_ALIGNED(args->size) || !args->size))
		return false;
	if (TEMPO_IOCTL_DBG(tdev, args->bo_offset > bo_size ||
			    args->size > bo_size - args->bo_offset))
		return false;
	if (TEMPO_IOCTL_DBG(tdev, !auto_va &&
			    (args->va < TEMPO_VA_START ||
			     args->va > TEMPO_VA_END ||
			     args->size > TEMPO_VA_END - args->va)))
		return false;
	return true;
}

static int vm_insert(struct tempo_vm *vm, struct tempo_mapping *m,
		     const struct drm_tempo_vm_map *args)
{
	int ret;

	m->node.size = args->size;
	write_lock(&vm->mm_lock);
	if (args->flags & DRM_TEMPO_VM_MAP_AUTO_VA) {
		ret = drm_mm_insert_node_in_range(&vm->mm, &m->node, args->size,
						  PAGE_SIZE, 0, TEMPO_VA_START,
						  TEMPO_VA_END, DRM_MM_INSERT_BEST);
	} else {
		m->node.start = args->va;
		ret = drm_mm_reserve_node(&vm->mm, &m->node);
	}
	write_unlock(&vm->mm_lock);
	return ret;
}

/*
 * Place @m, whose buffer is mapped at @m->vaddr and referenced by @m, as
 * @args asks. Once placed, another thread of the file may unmap and free
 * @m: its address is read under the lock.
 */
static int vm_place(struct tempo_device *tdev, struct tempo_vm *vm,
		    struct tempo_mapping *m, struct drm_tempo_vm_map *args)
{
	int ret;

	m->bo_offset = args->bo_offset;
	m->readonly = args->flags & DRM_TEMPO_VM_MAP_READONLY;
	mutex_lock(&vm->lock);
	if (TEMPO_IOCTL_DBG(tdev, vm->num_mappings >= tempo_params.max_mappings)) {
		ret = -ENOSPC;
		goto out;
	}
	ret = vm_insert(vm, m, args);
	if (TEMPO_IOCTL_DBG(tdev, ret))
		goto out;
	vm->num_mappings++;
	args->va = m->node.start;
out:
	mutex_unlock(&vm->lock);
	return ret;
}

static int vm_map(struct tempo_device *tdev, struct tempo_vm *vm,
		  struct drm_gem_object *obj, struct drm_tempo_vm_map *args)
{
	struct tempo_mapping *m;
	struct iosys_map map;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	/* Counted as resident before its pages are allocated. */
	ret = tempo_gem_charge_pages(obj);
	if (ret)
		goto err_free;
	ret = drm_gem_vmap(obj, &map);
	if (ret)
		goto err_free;
	m->vaddr = map.vaddr;
	m->obj = obj;
	drm_gem_object_get(obj);
	ret = vm_place(tdev, vm, m, args);
	if (ret)
		goto err_put;
	return 0;

err_put:
	drm_gem_vunmap(obj, &map);
	drm_gem_object_put(obj);
err_free:
	kfree(m);
	return ret;
}

/**
 * tempo_ioctl_vm_map() - DRM_IOCTL_TEMPO_VM_MAP
 * @dev: the DRM device
 * @data: &struct drm_tempo_vm_map
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_vm_map(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct tempo_vm *vm = to_tempo_file(file)->vm;
	struct drm_tempo_vm_map *args = data;
	struct drm_gem_object *obj;
	int ret = -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (TEMPO_IOCTL_DBG(tdev, !obj))
		return -ENOENT;
	/* Another file's private buffer: not in this address space. */
	if (TEMPO_IOCTL_DBG(tdev, !tempo_gem_mappable(obj, vm)))
		ret = -EINVAL;
	else if (map_args_valid(tdev, args, obj->size))
		ret = vm_map(tdev, vm, obj, args);
	drm_gem_object_put(obj);
	return ret;
}

static struct tempo_mapping *vm_remove(struct tempo_vm *vm, u64 va, u64 size)
{
	struct tempo_mapping *m;

	write_lock(&vm->mm_lock);
	m = vm_find(vm, va);
	if (m && m->node.start == va && m->node.size == size)
		drm_mm_remove_node(&m->node);
	else
		m = NULL;
	write_unlock(&vm->mm_lock);
	return m;
}

/**
 * tempo_ioctl_vm_unmap() - DRM_IOCTL_TEMPO_VM_UNMAP
 * @dev: the DRM device
 * @data: &struct drm_tempo_vm_unmap
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_vm_unmap(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_vm_unmap *args = data;
	struct tempo_vm *vm = to_tempo_file(file)->vm;
	struct tempo_mapping *m;

	if (TEMPO_IOCTL_DBG(tdev, args->flags || args->pad))
		return -EINVAL;
	mutex_lock(&vm->lock);
	m = vm_remove(vm, args->va, args->size);
	if (m)
		vm->num_mappings--;
	mutex_unlock(&vm->lock);
	if (TEMPO_IOCTL_DBG(tdev, !m))
		return -ENOENT;
	mapping_free(m);
	return 0;
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * tempo_vm_map_kunit() - map kernel memory as VM_MAP would map a buffer
 * @tdev: the device, for the argument checks' debug messages
 * @vm: the address space
 * @m: the mapping, owned by the caller
 * @vaddr: the memory standing for the buffer
 * @bo_size: its size
 * @args: as for %DRM_IOCTL_TEMPO_VM_MAP but the handle, which is unused;
 *	@args->va is set on success
 *
 * For the KUnit suites: the same argument checks and placement as the
 * ioctl, without a GEM object. The caller unmaps @m with
 * tempo_vm_unmap_kunit() before the last tempo_vm_put().
 *
 * Context: process.
 * Return: 0, -EINVAL for arguments the ioctl refuses, or -ENOSPC when
 * the range is taken.
 */
int tempo_vm_map_kunit(struct tempo_device *tdev, struct tempo_vm *vm,
		       struct tempo_mapping *m, void *vaddr, size_t bo_size,
		       struct drm_tempo_vm_map *args)
{
	if (!map_args_valid(tdev, args, bo_size))
		return -EINVAL;
	m->vaddr = vaddr;
	return vm_place(tdev, vm, m, args);
}

/**
 * tempo_vm_unmap_kunit() - unmap as VM_UNMAP would, without freeing
 * @vm: the address space
 * @va: start of the mapping
 * @size: its size
 *
 * Context: process.
 * Return: the mapping, or NULL when no mapping is exactly @va, @size.
 */
struct tempo_mapping *tempo_vm_unmap_kunit(struct tempo_vm *vm, u64 va,
					   u64 size)
{
	struct tempo_mapping *m;

	mutex_lock(&vm->lock);
	m = vm_remove(vm, va, size);
	if (m)
		vm->num_mappings--;
	mutex_unlock(&vm->lock);
	return m;
}
#endif
