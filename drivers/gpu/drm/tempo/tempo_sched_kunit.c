// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of drm_sched driven the way the scheduler glue drives an
 * HQD, over a mock backend.
 */

#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/wait.h>

#include <kunit/resource.h>

#include <drm/tempo_drm.h>

#include "tempo_kunit.h"
#include "tempo_sched.h"

/* For tempo_priority_map(), which reads the HQD policy only. */
static const struct tempo_device static_policy = {
	.hqd_policy = TEMPO_HQD_STATIC,
};

/*
 * A drm_gpu_scheduler over a mock backend driven the way tempo's glue
 * drives an HQD: the hardware fence is allocated with the job and only
 * initialised by run_job, which hands it to the "hardware" (a list the
 * test ends jobs from, oldest first); timedout_job stops the scheduler,
 * aborts the job with -ETIMEDOUT, gives the jobs the hardware still holds
 * their fences back and restarts (no resubmission); teardown ends what the
 * hardware still holds with -ECANCELED and waits for every job to be freed
 * before drm_sched_fini().
 */
#define MOCK_MAX_JOBS		16
#define MOCK_MAX_ENTITIES	2
#define MOCK_WAIT		(5 * HZ)

struct mock_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	struct list_head link;
	struct dma_fence *finished;
	bool inited;
};

struct mock_sched {
	struct drm_gpu_scheduler base;
	struct drm_gpu_scheduler *list[1];
	struct drm_sched_entity entities[MOCK_MAX_ENTITIES];
	bool entity_live[MOCK_MAX_ENTITIES];
	u64 fence_context;
	spinlock_t lock; /* guards the fields below */
	u64 seqno;
	struct list_head hw;
	u32 num_run;
	u32 order[MOCK_MAX_JOBS];
	u32 in_flight;
	u32 max_in_flight;
	atomic_t timeouts;
	atomic_t jobs;
	wait_queue_head_t wq;
};

struct mock_job {
	struct drm_sched_job base;
	struct mock_sched *mock;
	struct mock_fence *hw;
	u32 id;
};

static struct mock_job *to_mock_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct mock_job, base);
}

static const char *mock_fence_name(struct dma_fence *fence)
{
	return "tempo-kunit";
}

static const struct dma_fence_ops mock_fence_ops = {
	.get_driver_name = mock_fence_name,
	.get_timeline_name = mock_fence_name,
};

static struct dma_fence *mock_run_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);
	struct mock_sched *mock = job->mock;
	struct mock_fence *f = job->hw;

	if (sched_job->s_fence->finished.error)
		return NULL;
	spin_lock(&mock->lock);
	dma_fence_init(&f->base, &mock_fence_ops, &f->lock,
		       mock->fence_context, ++mock->seqno);
	f->inited = true;
	f->finished = &sched_job->s_fence->finished;
	dma_fence_get(&f->base);	/* the hardware's reference */
	list_add_tail(&f->link, &mock->hw);
	if (mock->num_run < MOCK_MAX_JOBS)
		mock->order[mock->num_run] = job->id;
	mock->num_run++;
	mock->max_in_flight = max(mock->max_in_flight, ++mock->in_flight);
	spin_unlock(&mock->lock);
	wake_up_all(&mock->wq);
	return dma_fence_get(&f->base);
}

/* The hardware ends @f, if it still holds it, with @error. */
static bool mock_hw_end_fence(struct mock_sched *mock, struct mock_fence *f,
			      int error)
{
	bool held;

	spin_lock(&mock->lock);
	held = !list_empty(&f->link);
	if (held) {
		list_del_init(&f->link);
		mock->in_flight--;
	}
	spin_unlock(&mock->lock);
	if (!held)
		return false;
	/*
	 * As tempo's completion interrupt, before the fence signals: not
	 * every drm_sched copies the error to the job.
	 */
	if (error) {
		dma_fence_set_error(f->finished, error);
		dma_fence_set_error(&f->base, error);
	}
	dma_fence_signal(&f->base);
	dma_fence_put(&f->base);
	return true;
}

/* The hardware ends its @n oldest jobs; returns how many it had. */
static u32 mock_hw_end(struct mock_sched *mock, u32 n, int error)
{
	u32 done;

	for (done = 0; done < n; done++) {
		struct mock_fence *f;

		spin_lock(&mock->lock);
		f = list_first_entry_or_null(&mock->hw, struct mock_fence, link);
		if (f)
			dma_fence_get(&f->base);
		spin_unlock(&mock->lock);
		if (!f)
			break;
		mock_hw_end_fence(mock, f, error);
		dma_fence_put(&f->base);
	}
	return done;
}

static enum drm_gpu_sched_stat mock_timedout_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);
	struct drm_gpu_scheduler *sched = sched_job->sched;
	struct mock_sched *mock = job->mock;

	struct drm_sched_job *pending;

	drm_sched_stop(sched, sched_job);
	atomic_inc(&mock->timeouts);
	mock_hw_end_fence(mock, job->hw, -ETIMEDOUT);
	drm_sched_for_each_pending_job(pending, sched, NULL)
		if (!pending->s_fence->parent)
			pending->s_fence->parent =
				dma_fence_get(&to_mock_job(pending)->hw->base);
	/* Restarted, the scheduler may free the job at once. */
	drm_sched_start(sched, 0);
	wake_up_all(&mock->wq);
	return DRM_GPU_SCHED_STAT_RESET;
}

static void mock_job_free(struct mock_job *job)
{
	struct mock_sched *mock = job->mock;

	if (job->hw && job->hw->inited)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);
	kfree(job);
	atomic_dec(&mock->jobs);
	wake_up_all(&mock->wq);
}

static void mock_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	mock_job_free(to_mock_job(sched_job));
}

static const struct drm_sched_backend_ops mock_sched_ops = {
	.run_job = mock_run_job,
	.timedout_job = mock_timedout_job,
	.free_job = mock_free_job,
};

static void mock_entity_fini(struct mock_sched *mock,
			     struct drm_sched_entity *entity)
{
	u32 i = entity - mock->entities;

	if (mock->entity_live[i])
		drm_sched_entity_fini(entity);
	mock->entity_live[i] = false;
}

/* Entities go, the hardware stops, every job is freed, then the scheduler. */
static void mock_sched_teardown(void *data)
{
	struct mock_sched *mock = data;
	u32 i;

	for (i = 0; i < MOCK_MAX_ENTITIES; i++)
		mock_entity_fini(mock, &mock->entities[i]);
	for (i = 0; i < 50 && atomic_read(&mock->jobs); i++) {
		mock_hw_end(mock, U32_MAX, -ECANCELED);
		wait_event_timeout(mock->wq, !atomic_read(&mock->jobs),
				   HZ / 10);
	}
	drm_sched_fini(&mock->base);
}

static struct mock_sched *mock_sched_create(struct kunit *test, u32 credits,
					    long timeout)
{
	struct mock_sched *mock = kunit_kzalloc(test, sizeof(*mock), GFP_KERNEL);
	const struct drm_sched_init_args args = {
		.ops = &mock_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credits,
		.timeout = timeout,
		.name = "tempo-kunit",
	};
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, mock);
	spin_lock_init(&mock->lock);
	INIT_LIST_HEAD(&mock->hw);
	init_waitqueue_head(&mock->wq);
	mock->fence_context = dma_fence_context_alloc(1);
	mock->list[0] = &mock->base;
	ret = drm_sched_init(&mock->base, &args);
	KUNIT_ASSERT_EQ(test, 0, ret);
	ret = kunit_add_action_or_reset(test, mock_sched_teardown, mock);
	KUNIT_ASSERT_EQ(test, 0, ret);
	return mock;
}

/* Tear down now; every job must have been freed. */
static void mock_sched_fini(struct kunit *test, struct mock_sched *mock)
{
	kunit_release_action(test, mock_sched_teardown, mock);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&mock->jobs));
}

/* An entity of a context at tempo priority @priority. */
static struct drm_sched_entity *mock_entity(struct kunit *test,
					    struct mock_sched *mock,
					    s32 priority)
{
	struct tempo_prio prio = tempo_priority_map(&static_policy, priority);
	u32 i;

	for (i = 0; i < MOCK_MAX_ENTITIES && mock->entity_live[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, MOCK_MAX_ENTITIES);
	KUNIT_ASSERT_EQ(test, 0, drm_sched_entity_init(&mock->entities[i],
						       prio.sched, mock->list,
						       1, NULL));
	mock->entity_live[i] = true;
	return &mock->entities[i];
}

/* An entity at the normal priority, what most cases submit from. */
static struct drm_sched_entity *mock_normal_entity(struct kunit *test,
						   struct mock_sched *mock)
{
	return mock_entity(test, mock, DRM_TEMPO_PRIORITY_NORMAL);
}

static void fence_put_action(void *fence)
{
	dma_fence_put(fence);
}

/* For fences the test signals: never left unsignalled, even on failure. */
static void fence_signal_put_action(void *fence)
{
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

/*
 * Queue job @id on @entity, after @dep when not NULL; returns its
 * finished fence, referenced until the test ends.
 */
static struct dma_fence *mock_submit_after(struct kunit *test,
					   struct mock_sched *mock,
					   struct drm_sched_entity *entity,
					   u32 id, struct dma_fence *dep)
{
	struct mock_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	struct dma_fence *done;
	int ret = -ENOMEM;

	KUNIT_ASSERT_NOT_NULL(test, job);
	job->mock = mock;
	job->id = id;
	job->hw = kzalloc(sizeof(*job->hw), GFP_KERNEL);
	atomic_inc(&mock->jobs);
	if (job->hw) {
		spin_lock_init(&job->hw->lock);
		INIT_LIST_HEAD(&job->hw->link);
		ret = drm_sched_job_init(&job->base, entity, 1, mock, 0);
	}
	if (!ret && dep) {
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(dep));
		if (ret)
			drm_sched_job_cleanup(&job->base);
	}
	if (ret) {
		mock_job_free(job);
		KUNIT_ASSERT_EQ(test, 0, ret);
	}
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	drm_sched_entity_push_job(&job->base);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fence_put_action, done));
	return done;
}

static struct dma_fence *mock_submit(struct kunit *test,
				     struct mock_sched *mock,
				     struct drm_sched_entity *entity, u32 id)
{
	return mock_submit_after(test, mock, entity, id, NULL);
}

/* Submit jobs 0..@n - 1 of @entity, their finished fences into @done. */
static void mock_submit_many(struct kunit *test, struct mock_sched *mock,
			     struct drm_sched_entity *entity,
			     struct dma_fence **done, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		done[i] = mock_submit(test, mock, entity, i);
}

/* Wait until the hardware has been given @n jobs in all. */
static bool mock_wait_run(struct mock_sched *mock, u32 n)
{
	return wait_event_timeout(mock->wq, READ_ONCE(mock->num_run) >= n,
				  MOCK_WAIT);
}

static bool fence_wait(struct dma_fence *fence)
{
	return dma_fence_wait_timeout(fence, false, MOCK_WAIT) > 0;
}

static void sched_jobs_of_one_entity_run_and_complete_in_order(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *done[8];
	u32 i;

	mock_submit_many(test, mock, entity, done, ARRAY_SIZE(done));
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, ARRAY_SIZE(done)));
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_EQ(test, i, mock->order[i]);
		KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(done[i]));
	}
	/* the first three end: exactly those are done */
	KUNIT_EXPECT_EQ(test, 3, mock_hw_end(mock, 3, 0));
	KUNIT_ASSERT_TRUE(test, fence_wait(done[2]));
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[0]));
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[1]));
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(done[3]));
	KUNIT_EXPECT_EQ(test, 5, mock_hw_end(mock, U32_MAX, 0));
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_ASSERT_TRUE(test, fence_wait(done[i]));
		KUNIT_EXPECT_EQ(test, 0, done[i]->error);
		if (i)
			KUNIT_EXPECT_TRUE(test, dma_fence_is_later(done[i],
								   done[i - 1]));
	}
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(done), mock->num_run);
	mock_sched_fini(test, mock);
}

static void sched_job_waits_for_its_dependency(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct mock_fence *dep = kzalloc(sizeof(*dep), GFP_KERNEL);
	struct dma_fence *done;
	int ret;

	/* a fence of another timeline, an in-fence of exec */
	KUNIT_ASSERT_NOT_NULL(test, dep);
	spin_lock_init(&dep->lock);
	dma_fence_init(&dep->base, &mock_fence_ops, &dep->lock,
		       dma_fence_context_alloc(1), 1);
	ret = kunit_add_action_or_reset(test, fence_signal_put_action,
					&dep->base);
	KUNIT_ASSERT_EQ(test, 0, ret);
	done = mock_submit_after(test, mock, entity, 0, &dep->base);
	msleep(20);
	KUNIT_EXPECT_EQ(test, 0, READ_ONCE(mock->num_run));
	dma_fence_signal(&dep->base);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, fence_wait(done));
	KUNIT_EXPECT_EQ(test, 0, done->error);
	mock_sched_fini(test, mock);
}

static void sched_hung_job_times_out_once(struct kunit *test)
{
	/* long enough that the test thread ends the next job well before */
	long timeout = msecs_to_jiffies(200);
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    timeout);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *hung = mock_submit(test, mock, entity, 0);
	struct dma_fence *next;

	/* the hardware never ends it: the timeout aborts it */
	KUNIT_ASSERT_TRUE(test, fence_wait(hung));
	KUNIT_EXPECT_EQ(test, -ETIMEDOUT, hung->error);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&mock->timeouts));
	/* the reset did not give it to the hardware a second time */
	KUNIT_EXPECT_EQ(test, 1, READ_ONCE(mock->num_run));
	/* and the scheduler runs the next job normally */
	next = mock_submit(test, mock, entity, 1);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, fence_wait(next));
	KUNIT_EXPECT_EQ(test, 0, next->error);
	msleep(jiffies_to_msecs(2 * timeout));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&mock->timeouts));
	mock_sched_fini(test, mock);
}

/*
 * A reset ends the hung job only: the job behind it on the hardware keeps
 * running and completes without error (a reset without resubmission must
 * give drm_sched its hardware fence back, or it cancels the job).
 */
static void sched_reset_leaves_the_other_jobs_on_the_hardware(struct kunit *test)
{
	long timeout = msecs_to_jiffies(200);
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    timeout);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *hung = mock_submit(test, mock, entity, 0);
	struct dma_fence *next = mock_submit(test, mock, entity, 1);

	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	KUNIT_ASSERT_TRUE(test, fence_wait(hung));
	KUNIT_EXPECT_EQ(test, -ETIMEDOUT, hung->error);
	/* the second job is still the hardware's, and not done */
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(next));
	KUNIT_EXPECT_EQ(test, 1, mock_hw_end(mock, 1, 0));
	KUNIT_ASSERT_TRUE(test, fence_wait(next));
	KUNIT_EXPECT_EQ(test, 0, next->error);
	KUNIT_EXPECT_EQ(test, 2, READ_ONCE(mock->num_run));
	mock_sched_fini(test, mock);
}

static void sched_teardown_cancels_jobs_on_the_hardware(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *done[4];
	u32 i;

	mock_submit_many(test, mock, entity, done, ARRAY_SIZE(done));
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, ARRAY_SIZE(done)));
	mock_sched_fini(test, mock);
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[i]));
		KUNIT_EXPECT_EQ(test, -ECANCELED, done[i]->error);
	}
}

static void sched_entity_teardown_cancels_queued_jobs(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 1,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *done[3];
	u32 i;

	mock_submit_many(test, mock, entity, done, ARRAY_SIZE(done));
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	/* one credit: the other two are still in the entity's queue */
	mock_entity_fini(mock, entity);
	mock_sched_fini(test, mock);
	KUNIT_EXPECT_EQ(test, 1, mock->num_run);
	KUNIT_EXPECT_EQ(test, -ECANCELED, done[0]->error);
	for (i = 1; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[i]));
		KUNIT_EXPECT_LT(test, done[i]->error, 0);
	}
}

static void sched_higher_priority_entity_runs_first(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 1,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *low = mock_entity(test, mock,
						   DRM_TEMPO_PRIORITY_LOW);
	struct drm_sched_entity *high = mock_entity(test, mock,
						    DRM_TEMPO_PRIORITY_HIGH);
	struct dma_fence *last;

	/* a job holds the only credit while both entities get ready */
	mock_submit(test, mock, low, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	mock_submit(test, mock, low, 1);
	last = mock_submit(test, mock, high, 2);
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	KUNIT_EXPECT_EQ(test, 2, mock->order[1]);
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 3));
	KUNIT_EXPECT_EQ(test, 1, mock->order[2]);
	mock_hw_end(mock, 1, 0);
	KUNIT_EXPECT_TRUE(test, fence_wait(last));
	mock_sched_fini(test, mock);
}

static void sched_credit_limit_bounds_jobs_in_flight(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 2,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_normal_entity(test, mock);
	struct dma_fence *done[5];
	u32 i;

	mock_submit_many(test, mock, entity, done, ARRAY_SIZE(done));
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	msleep(20);
	KUNIT_EXPECT_EQ(test, 2, READ_ONCE(mock->num_run));
	/* each job that ends lets exactly one more in */
	for (i = 3; i <= ARRAY_SIZE(done); i++) {
		mock_hw_end(mock, 1, 0);
		KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, i));
	}
	mock_hw_end(mock, U32_MAX, 0);
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_ASSERT_TRUE(test, fence_wait(done[i]));
		KUNIT_EXPECT_EQ(test, 0, done[i]->error);
	}
	KUNIT_EXPECT_EQ(test, 2, mock->max_in_flight);
	mock_sched_fini(test, mock);
}

TEMPO_KUNIT_SUITE(sched, NULL, NULL,
		  KUNIT_CASE(sched_jobs_of_one_entity_run_and_complete_in_order),
		  KUNIT_CASE(sched_job_waits_for_its_dependency),
		  KUNIT_CASE(sched_hung_job_times_out_once),
		  KUNIT_CASE(sched_reset_leaves_the_other_jobs_on_the_hardware),
		  KUNIT_CASE(sched_teardown_cancels_jobs_on_the_hardware),
		  KUNIT_CASE(sched_entity_teardown_cancels_queued_jobs),
		  KUNIT_CASE(sched_higher_priority_entity_runs_first),
		  KUNIT_CASE(sched_credit_limit_bounds_jobs_in_flight));
