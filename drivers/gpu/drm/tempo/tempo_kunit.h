/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * What the KUnit suites need of KUnit on every kernel tempo builds on:
 * deferred actions, which KUnit has since 6.5, made of the resources
 * it had before; and the one way they declare a suite.
 */
#ifndef _TEMPO_KUNIT_H_
#define _TEMPO_KUNIT_H_

#include <linux/slab.h>

#include <kunit/resource.h>
#include <kunit/test.h>

#include "tempo_compat_gen.h"

#ifdef TEMPO_HAVE_KUNIT_ADD_ACTION
#define tempo_kunit_add_action_or_reset	kunit_add_action_or_reset
#define tempo_kunit_release_action	kunit_release_action
#else
struct tempo_kunit_action {
	void (*fn)(void *data);
	void *data;
};

static inline int tempo_kunit_action_init(struct kunit_resource *res,
					  void *context)
{
	res->data = context;
	return 0;
}

static inline void tempo_kunit_action_free(struct kunit_resource *res)
{
	struct tempo_kunit_action *action = res->data;

	action->fn(action->data);
	kfree(action);
}

static inline bool tempo_kunit_action_match(struct kunit *test,
					    struct kunit_resource *res,
					    void *match_data)
{
	const struct tempo_kunit_action *a = res->data, *b = match_data;

	return res->free == tempo_kunit_action_free && a->fn == b->fn &&
	       a->data == b->data;
}

/* Run @fn(@data) when the test ends; at once, and fail, without memory. */
static inline int tempo_kunit_add_action_or_reset(struct kunit *test,
						  void (*fn)(void *data),
						  void *data)
{
	struct tempo_kunit_action *action = kmalloc(sizeof(*action),
						    GFP_KERNEL);

	if (action) {
		action->fn = fn;
		action->data = data;
		if (kunit_alloc_resource(test, tempo_kunit_action_init,
					 tempo_kunit_action_free, GFP_KERNEL,
					 action))
			return 0;
		kfree(action);
	}
	fn(data);
	return -ENOMEM;
}

/* Run the action @fn(@data) now instead of when the test ends. */
static inline void tempo_kunit_release_action(struct kunit *test,
					      void (*fn)(void *data),
					      void *data)
{
	struct tempo_kunit_action key = { .fn = fn, .data = data };

	kunit_destroy_resource(test, tempo_kunit_action_match, &key);
}
#endif

/*
 * TEMPO_KUNIT_SUITE(id, init, exit, cases...) - declare the suite
 * "tempo_<id>" of the KUNIT_CASE()s listed, with its fixture's init and
 * exit functions (NULL for none).
 */
#define TEMPO_KUNIT_SUITE(id, init_fn, exit_fn, ...)			\
	static struct kunit_case tempo_##id##_cases[] = {		\
		__VA_ARGS__,						\
		{}							\
	};								\
	static struct kunit_suite tempo_##id##_suite = {		\
		.name = "tempo_" #id,					\
		.init = init_fn,					\
		.exit = exit_fn,					\
		.test_cases = tempo_##id##_cases,			\
	};								\
	kunit_test_suite(tempo_##id##_suite)

#endif /* _TEMPO_KUNIT_H_ */
