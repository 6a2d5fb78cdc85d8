-- Swept contacts (issue 26): the two rules of the swept tests on every axis and sign,
-- for blocks, static colliders and solid entities, in Collider:sweep, world:sweep and
-- e:move_swept, and a seeded property test against an exact brute force in Lua.
--
-- Rule 1: a pair whose overlap interval is empty or a single instant (entry >= exit:
-- an edge grazed, or boxes touching and moving apart) is no hit. The conventions that
-- stay: touching on a still axis never hits; touching and moving into a box hits at
-- t = 0; boxes that already overlap report no hit (t = 1).
-- Rule 2: at equal entry time world:sweep takes a face contact (one axis enters then)
-- before an edge or corner contact (several do); between faces the normal's axis X,
-- then Y, then Z (the swept resolver's order); at the same rank blocks (in cell order)
-- before colliders, colliders by their box's min corner, then max corner.
--
-- All coordinates and displacements here are dyadic (exact in binary), so contacts
-- fall exactly on faces, edges and seams; where a product t x d enters (a hit at
-- t > 0), results are compared within 1e-12.
local bp = require "blockphys"
local H = require "helpers.world"
local C = bp.Collider

local BACK = 0.001 -- rules.back_off of bp.rules.mccpp()
local TOL = 1e-12
local HAIR = 1 / 64 -- "a hair" of overlap or length: exact, and far above TOL

-- The resolver's rules for these specs: no step assist (it would turn a side hit into
-- a step and hide the hit axis).
local function rules()
  return bp.rules.mccpp { step_height = 0 }
end

-- A box from per-axis ranges r[1..3] = { lo, hi }.
local function box(r)
  return C(r[1][1], r[2][1], r[3][1], r[1][2], r[2][2], r[3][2])
end

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

local function vec(i, s)
  local v = { 0, 0, 0 }
  v[i] = s
  return v
end

-- "+X", "-Z", ...: an axis and a sign, for messages.
local function label(i, s)
  return (s > 0 and "+" or "-") .. ("XYZ"):sub(i, i)
end

local function fmt(v)
  return ("(%g, %g, %g)"):format(v[1], v[2], v[3])
end

-- Spawn an entity whose box is exactly the ranges r (r[1] and r[3] of equal length).
local function spawn_box(w, r, extra)
  assert(r[1][2] - r[1][1] == r[3][2] - r[3][1], "entity boxes are square on x, z")
  local t = {
    x = (r[1][1] + r[1][2]) / 2, y = r[2][1], z = (r[3][1] + r[3][2]) / 2,
    width = r[1][2] - r[1][1], height = r[2][2] - r[2][1],
  }
  for k, v in pairs(extra or {}) do t[k] = v end
  local e = w:spawn(t)
  assert.are.same({ box(r):unpack() }, { e:box():unpack() })
  return e
end

-- A world with the obstacle ranges `obstacles` as blocks (unit cells at integer
-- coordinates), static colliders or solid entities. Returns the world and, per
-- obstacle, what world:sweep reports for it: { x, y, z } of the cell or the handle.
-- `order`: the order in which to add them (default 1, 2, ...).
local function world_with(kind, obstacles, order)
  local w = bp.World()
  w:define_block { name = "stone" }
  local ids = {}
  local list = order
  if not list then
    list = {}
    for i = 1, #obstacles do list[i] = i end
  end
  for _, i in ipairs(list) do
    local r = obstacles[i]
    if kind == "block" then
      for a = 1, 3 do
        assert(r[a][2] - r[a][1] == 1 and r[a][1] == math.floor(r[a][1]), "a block is a unit cell")
      end
      w:set_block(r[1][1], r[2][1], r[3][1], "stone")
      ids[i] = { r[1][1], r[2][1], r[3][1] }
    elseif kind == "collider" then
      ids[i] = w:add_collider(box(r))
    else
      spawn_box(w, r, { solid = true })
    end
  end
  return w, ids
end

-- What world:sweep's hit table names: the cell or the collider handle.
local function hit_id(hit)
  if hit.collider then return hit.handle end
  return { hit.x, hit.y, hit.z }
end

-- The cases of rule 1 for approach axis a (sign sa) and separating axis b (sign sb),
-- the third axis c still or moving. The mover is the unit cube [0, 1]^3 throughout.
-- Each case: name, obstacle ranges S, displacement v, the expected hit (nil, or t and
-- the normal) and the expected e:move_swept displacement `out` (`near`: within TOL).
local function rule1_cases(a, sa, b, sb, vc)
  local c = 6 - a - b
  local function ranges(ra, rb)
    local r = {}
    r[a], r[b], r[c] = ra, rb, { 0, 1 }
    return r
  end
  local function v3(va, vb)
    local v = { 0, 0, 0 }
    v[a], v[b], v[c] = va, vb, vc
    return v
  end
  local touch_a = sa > 0 and { 1, 2 } or { -1, 0 } -- touching the mover on a
  local touch_b = sb > 0 and { 1, 2 } or { -1, 0 }
  local hair_b = sb > 0 and { 1 - HAIR, 2 - HAIR } or { -1 + HAIR, HAIR } -- overlapping by a hair
  local gap_a = sa > 0 and { 2, 3 } or { -2, -1 } -- 1 block away on a
  local k = math.min(a, b)
  local cases = {}
  local function add(name, S, v, hit, out, blocks, near)
    cases[#cases + 1] = { name = name, S = S, v = v, hit = hit, out = out, blocks = blocks, near = near, c = c }
  end
  -- Touching along an edge, moving into the box on a and away from it on b: the b
  -- window closes at t = 0 as the a window opens (entry = exit = 0): no hit.
  local v = v3(0.25 * sa, -0.5 * sb)
  add("touching on a, moving in; touching on b, moving apart: no hit",
    ranges(touch_a, touch_b), v, nil, v, true)
  -- Control: moving into it on both axes, a real corner hit at t = 0: an edge (a and
  -- b enter together) whose normal takes the lower axis; the resolver stops that axis
  -- and the other goes on along the face, touching on the now still axis.
  v = v3(0.25 * sa, 0.5 * sb)
  local out = copy(v)
  out[k] = 0
  add("control: moving into it on both axes is a corner hit at t = 0",
    ranges(touch_a, touch_b), v, { t = 0, n = vec(k, k == a and -sa or -sb) }, out, true)
  -- Control: a hair of overlap on b, moving apart: the b window stays open until
  -- t = (1/64) / 0.5, so the face on a is hit at t = 0.
  v = v3(0.25 * sa, -0.5 * sb)
  out = copy(v)
  out[a] = 0
  add("control: a hair of overlap on b is a hit at t = 0 on a",
    ranges(touch_a, hair_b), v, { t = 0, n = vec(a, -sa) }, out, false)
  -- An edge grazed: a enters at 1 / 2 exactly as b leaves (the mover's b range slides
  -- off the box's): no hit.
  v = v3(2 * sa, 2 * sb)
  add("an edge grazed (a enters as b leaves, t = 0.5): no hit",
    ranges(gap_a, { 0, 1 }), v, nil, v, true)
  -- Controls: a hair longer on b and the face on a is hit at 0.5 (the resolver stops
  -- back_off x the pass short); a hair shorter and b leaves first: no hit.
  out = copy(v)
  out[a] = v[a] * (0.5 - BACK)
  add("control: a hair longer on b is hit at t = 0.5 on a",
    ranges(gap_a, { -HAIR, 1 + HAIR }), v, { t = 0.5, n = vec(a, -sa) }, out, false, true)
  add("control: a hair shorter on b: no hit",
    ranges(gap_a, { HAIR, 1 - HAIR }), v, nil, v, false)
  return cases
end

-- Every (a, sa, b, sb, third axis still or moving) and its cases.
local function each_rule1(fn)
  for a = 1, 3 do
    for b = 1, 3 do
      if b ~= a then
        for _, sa in ipairs { 1, -1 } do
          for _, sb in ipairs { 1, -1 } do
            for _, vc in ipairs { 0, 0.5 } do
              for _, case in ipairs(rule1_cases(a, sa, b, sb, vc)) do
                local where = ("a = %s, b = %s, c %s: %s"):format(label(a, sa), label(b, sb),
                  vc == 0 and "still" or "moving", case.name)
                fn(case, where)
              end
            end
          end
        end
      end
    end
  end
end

local UNIT = { { 0, 1 }, { 0, 1 }, { 0, 1 } }

local function check_out(case, got, where)
  for i = 1, 3 do
    if case.near then
      assert.is_near(case.out[i], got[i], TOL, where .. " axis " .. i)
    else
      assert.are.equal(case.out[i], got[i], where .. " axis " .. i .. ": got " .. fmt(got))
    end
  end
end

describe("swept contacts: rule 1, entry = exit is no hit", function()
  it("Collider:sweep, on every axis and sign", function()
    local n = 0
    each_rule1(function(case, where)
      local got = { box(UNIT):sweep(box(case.S), case.v[1], case.v[2], case.v[3]) }
      if case.hit then
        assert.are.same({ case.hit.t, case.hit.n[1], case.hit.n[2], case.hit.n[3] }, got, where)
      else
        assert.are.same({ 1, 0, 0, 0 }, got, where)
      end
      n = n + 1
    end)
    assert.are.equal(6 * 4 * 2 * 6, n)
  end)

  for _, kind in ipairs { "block", "collider" } do
    it(("world:sweep against a %s, on every axis and sign"):format(kind), function()
      each_rule1(function(case, where)
        if kind == "block" and not case.blocks then return end
        local w, ids = world_with(kind, { case.S })
        local t, ax, ay, az, hit = w:sweep(box(UNIT), case.v[1], case.v[2], case.v[3])
        if case.hit then
          assert.are.equal(case.hit.t, t, where)
          assert.are.same(case.hit.n, { hit.nx, hit.ny, hit.nz }, where)
          assert.are.same(ids[1], hit_id(hit), where)
          -- the allowed displacement: t x v (up to the face on the normal's axis)
          for i = 1, 3 do
            assert.is_near(case.hit.t * case.v[i], ({ ax, ay, az })[i], TOL, where)
          end
        else
          assert.are.same({ 1, case.v[1], case.v[2], case.v[3] }, { t, ax, ay, az }, where)
          assert.is_nil(hit, where)
        end
      end)
    end)
  end

  for _, kind in ipairs { "block", "collider", "solid entity" } do
    it(("e:move_swept against a %s, on every axis and sign"):format(kind), function()
      each_rule1(function(case, where)
        if kind == "block" and not case.blocks then return end
        local S = case.S
        if kind == "solid entity" and S[1][2] - S[1][1] ~= S[3][2] - S[3][1] then
          -- an entity's box is square on x, z: widen the third axis c (overlapped
          -- throughout) to the length of the other, or skip when c is Y
          if case.c == 2 then return end
          local other = 4 - case.c
          local half = (S[other][2] - S[other][1]) / 2
          S = copy(S)
          S[case.c] = { 0.5 - half, 0.5 + half }
        end
        local w = world_with(kind, { S })
        local e = spawn_box(w, UNIT, { rules = rules() })
        check_out(case, { e:move_swept(case.v[1], case.v[2], case.v[3]) }, where)
        assert.are.equal(0, #w:boxes_in(e:box()), where)
      end)
    end)
  end

  describe("the issue's repros", function()
    it("Collider:sweep: touching on X moving in, touching on Y moving apart", function()
      -- X entry (1 - 1) / 0.3 = 0, Y exit (1 - 1) / 0.4 = 0: entry = exit, no hit (the
      -- specification's entry > exit test reported 0, -1, 0, 0).
      assert.are.same({ 1, 0, 0, 0 }, { C(0, 1, 0, 1, 2, 1):sweep(C(1, 0, 0, 2, 1, 1), 0.3, 0.4, 0) })
      -- mirrored on every axis: the same
      assert.are.same({ 1, 0, 0, 0 }, { C(1, 1, 0, 2, 2, 1):sweep(C(0, 0, 0, 1, 1, 1), -0.3, 0.4, 0) })
      assert.are.same({ 1, 0, 0, 0 }, { C(0, 0, 0, 1, 1, 1):sweep(C(1, 1, 0, 2, 2, 1), 0.3, -0.4, 0) })
    end)

    it("an MC-CPP player whose front face lies on a floor seam jumps forward as from x = 0.65", function()
      -- Player x = 1 - 0.3F: the front face (x + 0.30000001) is x = 1, the seam between
      -- the floor blocks 0 and 1. The jump tick moves up and forward: block 1 is touched
      -- along an edge, moved into on X and away from on Y (entry = exit = 0), which
      -- used to stop X on that tick (dx = 0). Each tick now moves as the same player
      -- standing at x = 0.65, away from any seam.
      local function run(x0)
        local w = bp.World()
        w:define_block { name = "stone" }
        for x = -3, 6 do
          for z = -3, 3 do w:set_block(x, 63, z, "stone") end
        end
        -- the documents' integrator, as in the issue's repro (the default one
        -- starts the jump tick's forward move from rest far more gently)
        local p = w:spawn { x = x0, y = 64, z = 0.5, rules = bp.rules.mccpp { integrator = "mccpp" } }
        w:step(1 / 60)
        w:step(1 / 60)
        assert.is_true(p.on_ground)
        p.forward, p.yaw, p.jumping = 1, -90, true -- yaw -90 faces +X
        local d = {}
        for i = 1, 5 do
          local x, y = p.x, p.y
          w:step(1 / 60)
          d[i] = { p.x - x, p.y - y }
        end
        return d, p
      end
      local x0 = 1 - H.F.half_width
      local _, _, _, x2 = C(x0 - H.F.half_width, 0, 0, x0 + H.F.half_width, 1, 1):unpack()
      assert.are.equal(1, x2) -- the premise: the front face is on the seam
      local seam = run(x0)
      local away = run(0.65)
      assert.is_true(seam[1][1] > 0.02) -- the jump tick moves forward
      for i = 1, 5 do
        assert.is_near(away[i][1], seam[i][1], TOL)
        assert.are.equal(away[i][2], seam[i][2])
      end
    end)

    it("a box flush with a ledge's edge moves (0.1, -0.5, 0) as with e:move", function()
      -- Box x [1, 1.5] standing at the level of the ledge block (0,0,0)'s top (y = 1),
      -- its left face on the ledge's right face: moving +X leaves the ledge's side as
      -- moving -Y reaches its top plane (entry = exit = 0): no hit, it falls past.
      local w = bp.World()
      w:define_block { name = "stone" }
      w:set_block(0, 0, 0, "stone")
      local e = w:spawn { x = 1.25, y = 1, z = 0.5, width = 0.5, height = 1, rules = bp.rules.mccpp() }
      local swept = { e:move_swept(0.1, -0.5, 0) }
      e:teleport(1.25, 1, 0.5)
      local axis = { e:move(0.1, -0.5, 0) }
      -- (1.25 + 0.1) - 1.25 rounds: 0.1 within TOL; both resolvers agree exactly
      assert.are.same(axis, swept)
      assert.is_near(0.1, swept[1], TOL)
      assert.are.same({ -0.5, 0 }, { swept[2], swept[3] })
    end)

    it("a 2x2x2 box exactly between two walls moves (3, 3, 0) with move_swept(3, 3, 3)", function()
      -- Walls z <= -1 and z >= 1, the box z [-1, 1]: Z is touched and moved into (a hit
      -- at t = 0 on Z); X and Y slide along the walls (touching on a still axis).
      local w = bp.World()
      w:define_block { name = "stone" }
      w:fill(-6, -1, -4, 6, 6, -2, "stone")
      w:fill(-6, -1, 1, 6, 6, 3, "stone")
      local e = w:spawn { x = 0, y = -1, z = 0, width = 2, height = 2, rules = bp.rules.mccpp() }
      assert.are.same({ 3, 3, 0 }, { e:move_swept(3, 3, 3) })
      assert.is_true(e.collided_horizontally)
    end)
  end)
end)

-- The cases of rule 2 for approach axis a (sign sa) onto two boxes side by side
-- across a seam on axis b, the mover moving along b toward the seam (sign sb) and
-- reaching it exactly when it reaches the boxes (t = 0.5): the box it lands on is a
-- face contact (a only), the other an edge contact (a and b together). The mover is a
-- 0.5 cube; the third axis still or moving (vc).
local function rule2_case(a, sa, b, sb, vc)
  local c = 6 - a - b
  local M, F, E = {}, {}, {}
  M[a] = sa > 0 and { -1.5, -1 } or { 2, 2.5 } -- 1 block from the boxes' a range [0, 1]
  M[b] = sb > 0 and { 0, 0.5 } or { 1.5, 2 } -- reaches the seam b = 1 at t = 0.5
  M[c] = { 0.25, 0.75 }
  F[a], E[a] = { 0, 1 }, { 0, 1 }
  F[b] = sb > 0 and { 0, 1 } or { 1, 2 } -- under the mover at t = 0.5: the face
  E[b] = sb > 0 and { 1, 2 } or { 0, 1 } -- beyond the seam: the edge
  F[c], E[c] = { 0, 1 }, { 0, 1 }
  local v = { 0, 0, 0 }
  v[a], v[b], v[c] = 2 * sa, sb, vc
  local allowed = { 0, 0, 0 }
  allowed[a], allowed[b], allowed[c] = sa, sb / 2, vc / 2
  local out = copy(v)
  out[a] = v[a] * (0.5 - BACK)
  return { M = M, F = F, E = E, v = v, n = vec(a, -sa), allowed = allowed, out = out }
end

local function each_rule2(fn)
  for a = 1, 3 do
    for b = 1, 3 do
      if b ~= a then
        for _, sa in ipairs { 1, -1 } do
          for _, sb in ipairs { 1, -1 } do
            for _, vc in ipairs { 0, 0.25 } do
              fn(rule2_case(a, sa, b, sb, vc), ("a = %s, b = %s, c %s"):format(label(a, sa), label(b, sb),
                vc == 0 and "still" or "moving"))
            end
          end
        end
      end
    end
  end
end

describe("swept contacts: rule 2, world:sweep breaks time ties as the resolver", function()
  it("the issue's repro: floor blocks (0,0,0), (1,0,0); a box lands on the seam moving (-1, -2, 0)", function()
    -- Y entry (2 - 1) / 2 = 0.5 for both blocks; block 1 is under the box then (a face),
    -- block 0 is reached on X at that instant too ((1 - 1.5) / -1 = 0.5: an edge, X and
    -- Y). The face wins: block (1,0,0), normal +Y; visited first, block 0 used to win
    -- with normal +X. The mirrored move lands on block 0.
    local w = bp.World()
    w:define_block { name = "stone" }
    w:set_block(0, 0, 0, "stone")
    w:set_block(1, 0, 0, "stone")
    local t, ax, ay, az, hit = w:sweep(C(1.5, 2, 0.2, 2, 3, 0.8), -1, -2, 0)
    assert.are.same({ 0.5, -0.5, -1, 0 }, { t, ax, ay, az })
    assert.are.same({ 1, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
    t, ax, ay, az, hit = w:sweep(C(0, 2, 0.2, 0.5, 3, 0.8), 1, -2, 0)
    assert.are.same({ 0.5, 0.5, -1, 0 }, { t, ax, ay, az })
    assert.are.same({ 0, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
  end)

  for _, kind in ipairs { "block", "collider" } do
    it(("world:sweep: a face before an edge, %ss, on every axis and sign"):format(kind), function()
      each_rule2(function(case, where)
        -- both orders of adding the colliders (blocks have no order but their cells')
        for _, order in ipairs { { 1, 2 }, { 2, 1 } } do
          local w, ids = world_with(kind, { case.F, case.E }, order)
          local t, ax, ay, az, hit = w:sweep(box(case.M), case.v[1], case.v[2], case.v[3])
          assert.are.same({ 0.5, case.allowed[1], case.allowed[2], case.allowed[3] }, { t, ax, ay, az }, where)
          assert.are.same(case.n, { hit.nx, hit.ny, hit.nz }, where)
          assert.are.same(ids[1], hit_id(hit), where)
        end
      end)
    end)
  end

  for _, kind in ipairs { "block", "collider", "solid entity" } do
    it(("e:move_swept lands on the seam and slides on, %ss, on every axis and sign"):format(kind), function()
      -- The resolver stops the face's axis a (back_off short) and b goes on in full;
      -- the edge's axis would stop b at the seam.
      each_rule2(function(case, where)
        local w = world_with(kind, { case.F, case.E })
        local e = spawn_box(w, case.M, { rules = rules() })
        local got = { e:move_swept(case.v[1], case.v[2], case.v[3]) }
        for i = 1, 3 do
          assert.is_near(case.out[i], got[i], TOL, where .. " axis " .. i)
        end
      end)
    end)
  end

  it("between two faces met at once, the normal's axis X, then Y, then Z", function()
    -- The unit cube moving (2 sa, 2 sb, ...) toward two boxes, one a block ahead on
    -- axis a, the other a block ahead on axis b, both 1 away: both faces at t = 0.5.
    for a = 1, 3 do
      for b = a + 1, 3 do
        for _, sa in ipairs { 1, -1 } do
          for _, sb in ipairs { 1, -1 } do
            local A, B = { { 0, 1 }, { 0, 1 }, { 0, 1 } }, { { 0, 1 }, { 0, 1 }, { 0, 1 } }
            A[a] = sa > 0 and { 2, 3 } or { -2, -1 }
            B[b] = sb > 0 and { 2, 3 } or { -2, -1 }
            -- each box spans the other's approach axis widely: both stay face contacts
            A[b] = { -5, 6 }
            B[a] = { -5, 6 }
            local v = { 0, 0, 0 }
            v[a], v[b] = 2 * sa, 2 * sb
            local where = ("axes %d, %d, signs %d, %d"):format(a, b, sa, sb)
            for _, order in ipairs { { 1, 2 }, { 2, 1 } } do
              local w, ids = world_with("collider", { A, B }, order)
              local t, _, _, _, hit = w:sweep(box(UNIT), v[1], v[2], v[3])
              assert.are.equal(0.5, t, where)
              assert.are.same(vec(a, -sa), { hit.nx, hit.ny, hit.nz }, where)
              assert.are.equal(ids[1], hit.handle, where)
            end
            -- the resolver stops a first (pass 1), then b (pass 2)
            local w = world_with("collider", { A, B })
            local e = spawn_box(w, UNIT, { rules = rules() })
            local got = { e:move_swept(v[1], v[2], v[3]) }
            assert.is_near(v[a] * (0.5 - BACK), got[a], TOL, where)
            -- pass 2 meets B with the rest of b (v[b] x 0.501), BACK x 2 x 0.501 of it away
            assert.is_near(sb * (1 - BACK * 2 * (1 - 0.5 + BACK)), got[b], TOL, where)
          end
        end
      end
    end
  end)

  it("at the same rank, a block before a collider, whichever lies lower", function()
    -- The 0.5 cube x [0.75, 1.25] straddles x = 1 above a stone block x [0, 1] and a
    -- collider x [1, 2] (and the mirror: collider below x = 1, block above), landing
    -- on both at t = 0.5 (face Y): the block is reported.
    for _, collider_lo in ipairs { 1, -1 } do
      local w = bp.World()
      w:define_block { name = "stone" }
      local bx = collider_lo > 0 and 0 or 1
      w:set_block(bx, 0, 0, "stone")
      local cx = collider_lo > 0 and 1 or 0
      w:add_collider(C(cx, 0, 0, cx + 1, 1, 1))
      local t, _, _, _, hit = w:sweep(C(0.75, 2, 0.25, 1.25, 2.5, 0.75), 0, -2, 0)
      assert.are.equal(0.5, t)
      assert.is_nil(hit.collider)
      assert.are.same({ bx, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
    end
  end)

  it("at the same rank, colliders by their min corner, then their max corner, not by insertion", function()
    local M = C(0.75, 2, 0.25, 1.25, 2.5, 0.75)
    -- { box, box, which is reported }: both landed on at t = 0.5 (face Y)
    for _, pair in ipairs {
      { C(0, 0, 0, 1, 1, 1), C(1, 0, 0, 2, 1, 1), 1 }, -- min x 0 before min x 1
      { C(0, 0, 0, 2, 1, 1), C(0, -1, 0, 2, 1, 1), 2 }, -- min y -1 before min y 0
      { C(0, 0, 0, 2, 1, 1), C(0, 0, -1, 2, 1, 1), 2 }, -- min z -1 before min z 0
      { C(0, 0, 0, 2, 1, 2), C(0, 0, 0, 2, 1, 1), 2 }, -- same min corner: max z 1 before 2
    } do
      for _, order in ipairs { { 1, 2 }, { 2, 1 } } do
        local w = bp.World()
        local handle = {}
        for _, i in ipairs(order) do handle[i] = w:add_collider(pair[i]) end
        local t, _, _, _, hit = w:sweep(M, 0, -2, 0)
        assert.are.equal(0.5, t)
        assert.are.same({ 0, 1, 0 }, { hit.nx, hit.ny, hit.nz })
        assert.are.equal(handle[pair[3]], hit.handle, tostring(pair[pair[3]]))
      end
    end
  end)
end)

-- The property test. Small seeded worlds of floors with gaps, single-block walls,
-- steps (slabs and blocks), thin posts, ceilings and a few static colliders, and
-- movers with sizes, positions and displacements on a 1/8 grid, often flush with a
-- seam or an edge. Every length below is an integer count of eighths, so the brute
-- force is exact: each time is a fraction n / d (d > 0), compared by cross-multiplying.
describe("swept contacts: property test against an exact brute force", function()
  local E = 8 -- eighths per block
  -- block types: name and box in eighths of the cell
  local TYPES = {
    stone = { 0, 0, 0, 8, 8, 8 },
    slab = { 0, 0, 0, 8, 4, 8 },
    post = { 3, 0, 3, 5, 8, 5 },
  }

  -- The set of times when the interiors of mover M (moving by D) and box S overlap,
  -- per axis an open interval ((lo - ...) / |d|, ...), a still axis all times or none;
  -- a hit is their intersection, nonempty and entered at a time in [0, 1] (which
  -- also means the boxes do not overlap at t = 0). Returns nil or the hit: entry time
  -- n / d, the axes entering then (the lowest first) and the rank of world:sweep's
  -- tie rule (face 0..2, edge or corner 3..5, by the normal's axis).
  local function brute(M, S, D)
    local en_n, en_d, ex_n, ex_d
    local axes
    for i = 1, 3 do
      local d = D[i]
      if d == 0 then
        if not (M.lo[i] < S.hi[i] and M.hi[i] > S.lo[i]) then return nil end
      else
        local lo, hi -- numerators over |d| of the open interval's ends
        if d > 0 then
          lo, hi = S.lo[i] - M.hi[i], S.hi[i] - M.lo[i]
        else
          lo, hi = M.lo[i] - S.hi[i], M.hi[i] - S.lo[i]
        end
        local ad = math.abs(d)
        if not en_n or lo * en_d > en_n * ad then
          en_n, en_d, axes = lo, ad, { i }
        elseif lo * en_d == en_n * ad then
          axes[#axes + 1] = i
        end
        if not ex_n or hi * ex_d < ex_n * ad then ex_n, ex_d = hi, ad end
      end
    end
    if not en_n then return nil end -- still
    if en_n * ex_d >= ex_n * en_d then -- empty, or one instant (false: an instant in [0, 1])
      if en_n * ex_d == ex_n * en_d and en_n >= 0 and en_n <= en_d then return false end
      return nil
    end
    if en_n < 0 or en_n > en_d then return nil end -- entered before 0 or after 1
    local k = axes[1]
    local n = { 0, 0, 0 }
    n[k] = D[k] > 0 and -1 or 1
    return { n = en_n, d = en_d, normal = n, axis = k, rank = (#axes > 1 and 3 or 0) + k - 1 }
  end

  -- -1, 0, 1: the order of hits a and b (time, then rank).
  local function cmp(a, b)
    local l, r = a.n * b.d, b.n * a.d
    if l ~= r then return l < r and -1 or 1 end
    if a.rank ~= b.rank then return a.rank < b.rank and -1 or 1 end
    return 0
  end

  -- Box order of colliders at the same rank: min corner, then max corner.
  local function box_before(a, b)
    for i = 1, 3 do
      if a.lo[i] ~= b.lo[i] then return a.lo[i] < b.lo[i] end
    end
    for i = 1, 3 do
      if a.hi[i] ~= b.hi[i] then return a.hi[i] < b.hi[i] end
    end
    return false
  end

  -- A seeded world around cell (ox, oy, oz): the world and its boxes in eighths
  -- ({ lo, hi, cell = {x, y, z} } or { lo, hi, handle }).
  local function random_world(rand)
    local w = bp.World()
    for _, name in ipairs { "stone", "slab", "post" } do
      local b = TYPES[name]
      w:define_block { name = name, boxes = { { b[1] / E, b[2] / E, b[3] / E, b[4] / E, b[5] / E, b[6] / E } } }
    end
    local ox, oy, oz = rand(17) - 9, rand(17) - 9, rand(17) - 9
    local cells = {}
    local function set(x, y, z, name)
      cells[("%d,%d,%d"):format(x, y, z)] = { x, y, z, name }
    end
    for x = 0, 5 do -- a floor with gaps, here and there a slab
      for z = 0, 5 do
        local r = rand(10)
        if r <= 7 then set(x, 0, z, "stone") elseif r == 8 then set(x, 0, z, "slab") end
      end
    end
    for _ = 1, rand(4) + 2 do -- walls of single blocks, 1 or 2 high
      local x, z = rand(6) - 1, rand(6) - 1
      set(x, 1, z, "stone")
      if rand(2) == 1 then set(x, 2, z, "stone") end
    end
    for _ = 1, rand(3) + 1 do -- steps and posts
      set(rand(6) - 1, 1, rand(6) - 1, ({ "slab", "stone", "post" })[rand(3)])
    end
    if rand(4) == 1 then -- a piece of ceiling
      local x, z = rand(5) - 1, rand(5) - 1
      set(x, 3, z, "stone")
      set(x + 1, 3, z, "stone")
    end
    local boxes = {}
    for _, c in pairs(cells) do
      local x, y, z = c[1] + ox, c[2] + oy, c[3] + oz
      w:set_block(x, y, z, c[4])
      local b = TYPES[c[4]]
      boxes[#boxes + 1] = {
        lo = { x * E + b[1], y * E + b[2], z * E + b[3] },
        hi = { x * E + b[4], y * E + b[5], z * E + b[6] },
        cell = { x, y, z },
      }
    end
    for _ = 1, rand(3) - 1 do -- static colliders on the 1/8 grid
      local lo, hi = {}, {}
      for i, o in ipairs { ox, oy, oz } do
        lo[i] = o * E + rand(6 * E) - 1
        hi[i] = lo[i] + rand(2 * E)
      end
      local handle = w:add_collider(C(lo[1] / E, lo[2] / E, lo[3] / E, hi[1] / E, hi[2] / E, hi[3] / E))
      boxes[#boxes + 1] = { lo = lo, hi = hi, handle = handle }
    end
    table.sort(boxes, function(a, b) return box_before(a, b) end) -- pairs() order is not ours
    return w, boxes, { ox, oy, oz }
  end

  -- A mover near the world: width (x, z) and height on the grid, each min corner often
  -- flush with a seam (a whole or half block) from either side.
  local function random_mover(rand, o)
    local size = { rand(11) + 1, rand(15) + 1 }
    size[3] = size[1]
    local lo, hi = {}, {}
    for i = 1, 3 do
      local span = i == 2 and 4 or 6
      local r = rand(3)
      if r == 1 then
        lo[i] = o[i] * E + rand((span + 2) * E) - E - 1
      else
        local seam = o[i] * E + (rand(span + 2) - 2) * E + (rand(4) == 1 and E / 2 or 0)
        lo[i] = r == 2 and seam or seam - size[i]
      end
      hi[i] = lo[i] + size[i]
    end
    local D = {}
    for i = 1, 3 do
      local r = rand(3)
      D[i] = r == 1 and 0 or r == 2 and rand(17) - 9 or rand(49) - 25
    end
    if rand(3) == 1 then -- a diagonal on two axes: edges and corners met exactly
      local i = rand(3)
      local j = i % 3 + 1
      D[j] = (rand(2) == 1 and 1 or -1) * D[i]
    end
    return { lo = lo, hi = hi }, D
  end

  -- The first hit over all boxes (brute force), and every box that ties with it.
  local function first_hit(boxes, M, D)
    local best, ties, grazed = nil, {}, false
    for _, S in ipairs(boxes) do
      local h = brute(M, S, D)
      if h == false then grazed = true end
      if h then
        local o = best and cmp(h, best) or -1
        if o < 0 then
          best, ties = h, { S }
        elseif o == 0 then
          ties[#ties + 1] = S
        end
      end
    end
    return best, ties, grazed
  end

  -- Plain comparisons (luassert's are slow over thousands of cases); a failure reports
  -- the case.
  local function check(ok, where, what, want, got)
    if not ok then
      assert.is_true(false, ("%s: %s: want %s, got %s"):format(where, what, tostring(want), tostring(got)))
    end
  end

  local function same3(a, b)
    return a[1] == b[1] and a[2] == b[2] and a[3] == b[3]
  end

  it("world:sweep and e:move_swept agree with the brute force on 3000 seeded cases", function()
    local rand = H.rng(26)
    local counts = { none = 0, hit = 0, at0 = 0, edge = 0, tie = 0, collider = 0, graze = 0 }
    local rules_ = rules()
    for world_no = 1, 150 do
      local w, boxes, o = random_world(rand)
      for case_no = 1, 20 do
        local M, D
        repeat M, D = random_mover(rand, o) until D[1] ~= 0 or D[2] ~= 0 or D[3] ~= 0
        local v = { D[1] / E, D[2] / E, D[3] / E }
        local mover = C(M.lo[1] / E, M.lo[2] / E, M.lo[3] / E, M.hi[1] / E, M.hi[2] / E, M.hi[3] / E)
        local where = ("world %d, case %d: %s moving %s"):format(world_no, case_no, tostring(mover), fmt(v))
        local best, ties, grazed = first_hit(boxes, M, D)
        if grazed then counts.graze = counts.graze + 1 end

        -- world:sweep
        local t, ax, ay, az, hit = w:sweep(mover, v[1], v[2], v[3])
        local moved = { ax, ay, az }
        if not best then
          counts.none = counts.none + 1
          check(t == 1 and same3(moved, v) and hit == nil, where, "no hit",
            "1 " .. fmt(v), t .. " " .. fmt(moved) .. (hit and " and a hit" or ""))
        else
          counts.hit = counts.hit + 1
          if best.n == 0 then counts.at0 = counts.at0 + 1 end
          if best.rank >= 3 then counts.edge = counts.edge + 1 end
          if #ties > 1 then counts.tie = counts.tie + 1 end
          local want_t = best.n / best.d
          check(hit ~= nil, where, "a hit", want_t, "none")
          check(math.abs(want_t - t) <= TOL, where, "t", want_t, t)
          check(same3(best.normal, { hit.nx, hit.ny, hit.nz }), where, "normal", fmt(best.normal),
            fmt { hit.nx, hit.ny, hit.nz })
          for i = 1, 3 do
            check(math.abs(want_t * v[i] - moved[i]) <= TOL, where, "displacement " .. i, want_t * v[i], moved[i])
          end
          -- which box: blocks before colliders, colliders by their box (blocks among
          -- themselves go by cell order: checked when only one block ties)
          local blocks, first_collider = {}, nil
          for _, S in ipairs(ties) do
            if S.cell then
              blocks[#blocks + 1] = S
            elseif not first_collider then
              first_collider = S -- boxes are sorted by box_before
            end
          end
          if #blocks > 0 then
            check(not hit.collider, where, "a block", "block", "collider")
            if #blocks == 1 then
              check(same3(blocks[1].cell, { hit.x, hit.y, hit.z }), where, "cell", fmt(blocks[1].cell),
                fmt { hit.x, hit.y, hit.z })
            end
          else
            counts.collider = counts.collider + 1
            check(first_collider.handle == hit.handle, where, "collider", first_collider.handle, hit.handle)
          end
        end

        -- e:move_swept: the whole displacement where nothing blocks before t = 1 (a
        -- face reached at exactly t = 1 is no hit for the resolver), else the first
        -- hit's normal axis stops at the face, back_off x the displacement short.
        local e = w:spawn {
          x = (M.lo[1] + M.hi[1]) / (2 * E), y = M.lo[2] / E, z = (M.lo[3] + M.hi[3]) / (2 * E),
          width = (M.hi[1] - M.lo[1]) / E, height = (M.hi[2] - M.lo[2]) / E, rules = rules_,
        }
        local b = { e:box():unpack() }
        check(b[1] * E == M.lo[1] and b[2] * E == M.lo[2] and b[3] * E == M.lo[3] and b[4] * E == M.hi[1]
          and b[5] * E == M.hi[2] and b[6] * E == M.hi[3], where, "spawned box", tostring(mover), tostring(e:box()))
        local got = { e:move_swept(v[1], v[2], v[3]) }
        if not best or best.n == best.d then
          check(same3(v, got), where, "move_swept", fmt(v), fmt(got))
        else
          local k = best.axis
          local want = v[k] * math.max(0, best.n / best.d - BACK)
          check(math.abs(want - got[k]) <= TOL, where, "move_swept on axis " .. k, want, got[k])
        end
        w:remove(e)
      end
    end
    -- the seeds reach every kind of case, many times
    local seen = ("none %d, hits %d (at t = 0: %d, edges: %d, ties: %d, colliders: %d), grazed: %d"):format(
      counts.none, counts.hit, counts.at0, counts.edge, counts.tie, counts.collider, counts.graze)
    assert.is_true(counts.none > 500 and counts.hit > 500 and counts.at0 > 100 and counts.edge > 10
      and counts.tie > 100 and counts.collider > 20 and counts.graze > 100, seen)
  end)
end)

describe("world:sweep's work bound", function()
  it("raises past limits.max_query_boxes block boxes on the path, before any result", function()
    local w = bp.World()
    local boxes = {}
    for i = 0, 63 do boxes[#boxes + 1] = { i / 64, 0, 0, (i + 0.5) / 64, 1, 0.5 } end
    w:define_block{ name = "comb", boxes = boxes }
    w:fill(0, 0, 0, 255, 127, 0, "comb") -- 32,768 cells of 64 boxes: 2,097,152 boxes
    assert.has_error(function()
      w:sweep(bp.Collider(-1, 0.25, 0.6, -0.5, 127, 0.9), 300, 0, 0)
    end, "sweep: the path holds more than 1048576 block boxes (limits.max_query_boxes)")
    -- half the wall is within the bound: a hit (z 0.6 .. 0.9 misses the boxes' z
    -- 0 .. 0.5, so the sweep passes through: t = 1)
    local t = w:sweep(bp.Collider(-1, 0.25, 0.6, -0.5, 60, 0.9), 300, 0, 0)
    assert.equal(1, t)
  end)
end)
