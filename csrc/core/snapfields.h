/* SPDX-License-Identifier: MIT
 * snapfields.h - the coded fields of an entity, its inputs and its rules, in their
 * order in the snapshot format (version BP_SNAPSHOT_VERSION): snapcode.c expands
 * them for coding. A field added to bp_Entity, bp_EntityInput or bp_Rules that
 * affects results goes at the end of its list, with a version bump.
 * X_D double, X_D3 double[3], X_F float, X_U8 uint8_t, X_U32 uint32_t, X_I int.
 */
#ifndef BP_CORE_SNAPFIELDS_H
#define BP_CORE_SNAPFIELDS_H

#define BP_RULES_FIELDS \
	X_I(model) \
	X_I(resolver) \
	X_I(push) \
	X_I(integrator) \
	X_U8(hook_heading) \
	X_U8(hook_jump) \
	X_D(input_damping) \
	X_D(jump_impulse) \
	X_D(ground_accel) \
	X_D(accel_factor) \
	X_D(air_accel) \
	X_D(air_friction) \
	X_D(default_slipperiness) \
	X_D(gravity) \
	X_D(vertical_drag) \
	X_D(step_height) \
	X_D(camera_decay) \
	X_D(step_cooldown) \
	X_D(sneak_factor) \
	X_D(sneak_camera) \
	X_D(guard_probe) \
	X_D(guard_step) \
	X_I(sneak_guard) \
	X_I(step_sink_fix) \
	X_I(push_out_of_blocks) \
	X_I(drop_through_sneaking) \
	X_D(liquid_jump) \
	X_D(water_accel) \
	X_D(water_drag) \
	X_D(water_gravity) \
	X_D(lava_accel) \
	X_D(lava_drag) \
	X_D(lava_gravity) \
	X_D(breach_impulse) \
	X_D(breach_height) \
	X_D(ladder_speed) \
	X_D(ladder_descent) \
	X_D(ladder_climb) \
	X_D(water_inset_y) \
	X_D(lava_inset_xz) \
	X_D(water_current) \
	X_D(push_out_speed) \
	X_D(push_out_reach) \
	X_D(push_out_height) \
	X_D(web_factor_xz) \
	X_D(web_factor_y) \
	X_D(knockback) \
	X_D(knockback_max_vy) \
	X_D(push_radius) \
	X_D(push_strength) \
	X_D(push_threshold) \
	X_D(max_push_speed) \
	X_I(depenetrate) \
	X_D(depenetrate_distance) \
	X_I(max_pushes) \
	X_D(jump_height) \
	X_D(walk_speed) \
	X_D3(friction) \
	X_D3(drag_fly) \
	X_D3(drag_jump) \
	X_D3(drag_fall) \
	X_D(back_off) \
	X_D(camera_rise) \
	X_I(passes) \
	X_D(max_dt) \
	X_D(reference_dt) \
	X_D(water_rate) \
	X_D(water_speed) \
	X_D(water_sink) \
	X_D(water_swim) \
	X_D(lava_rate) \
	X_D(lava_speed) \
	X_D(lava_sink) \
	X_D(lava_swim) \
	X_D(breach_speed) \
	X_I(separate_iterations) \
	X_D(separate_tolerance)

/* The gather cache (bp_GatherCache) is left out: a cache of the blocks, emptied by a
 * restore; so are the frozen test's cache (stream_seen, stream_span, stream_lo) and
 * sleeping's step marks (quiet, disturbed, sleep_wait), reset by a restore. in_events is the binding's (userdata kept for events) and is coded too. */
#define BP_ENTITY_FIELDS \
	X_D3(box.lo) \
	X_D3(box.hi) \
	X_D3(vel) \
	X_D3(prev) \
	X_D(fall_distance) \
	X_D(landing_fall) \
	X_D(y_size) \
	X_D(step_offset) \
	X_D(trig_yaw) \
	X_F(trig_sin) \
	X_F(trig_cos) \
	X_U8(trig_valid) \
	X_U8(on_ground) \
	X_U8(coll_h) \
	X_U8(coll_v) \
	X_U8(in_water) \
	X_U8(in_lava) \
	X_U8(in_web) \
	X_U8(solid) \
	X_U8(stable) \
	X_U8(has_filter) \
	X_U8(pushed) \
	X_U8(out_coll_h) \
	X_U8(out_coll_v) \
	X_U8(move_stops) \
	X_U8(stops) \
	X_U8(prev_stops) \
	X_U8(in_events) \
	X_U8(sensor) \
	X_U8(carry) \
	X_U8(carried) \
	X_U32(sensed) \
	X_D3(carried_d) \
	X_D(stop_reach) \
	X_D(out_landing) \
	X_U32(serial) \
	X_U32(group) \
	X_U32(mask) \
	X_D(width) \
	X_D(height) \
	X_D3(adj) \
	X_U8(frozen)

#define BP_INPUT_FIELDS \
	X_D(forward) \
	X_D(strafe) \
	X_D(yaw) \
	X_U8(jumping) \
	X_U8(sneaking) \
	X_U8(flying) \
	X_U8(jump_latch)

#endif
