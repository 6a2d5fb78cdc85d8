--- plots.lua: runs the scenes behind the figures of docs/img/ and writes their data.
--
-- `make plots` runs it (through tools/plots/render.sh, which then runs the gnuplot
-- scripts beside it); by hand, from the checkout root after `make`:
--   lua5.4 -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path
--              package.cpath="./build/?.so;"..package.cpath' tools/plots/plots.lua DIR
--
-- Every number in a figure comes from here: each scene builds a world, drives
-- entities through `require "blockphys"` and records what the library did. Nothing is
-- computed by a formula of our own, so a figure changes when the library does.
-- Output, in DIR: one or more .dat files per figure (whitespace separated, the first
-- line the column titles the figures' legends show), and values.gp, gnuplot
-- assignments of the scalars the figures print (terminal speeds, apex, ...).
-- Numbers are written with a fixed format ("%.6f", ticks as integers), so the
-- files, like the simulation, are the same bytes on every run.
local bp = require "blockphys"

local DIR = assert(arg and arg[1], "usage: plots.lua OUTPUT_DIRECTORY")

-- Output helpers ------------------------------------------------------------------

-- A number as written to the data files: "%.6f", without a "-0.000000".
local function num(v)
  if math.type(v) == "integer" then return ("%d"):format(v) end
  local s = ("%.6f"):format(v)
  if s == "-0.000000" then s = "0.000000" end
  return s
end

-- A data file: dat(name, {titles}) returns row(...) and close(); blank(n) writes n
-- empty lines (one separates polylines, two separate gnuplot `index` blocks). The
-- titles are the first line, quoted, for gnuplot's `title columnheader`; with
-- `comment` true they are a "#" comment instead (files drawn without a legend).
local function dat(name, titles, comment)
  local f = assert(io.open(DIR .. "/" .. name, "w"))
  local head = {}
  for i, t in ipairs(titles) do
    assert(not t:find('["\\]'), "a title gnuplot could not read back: " .. t)
    head[i] = '"' .. t .. '"'
  end
  f:write(comment and "# " or "", table.concat(head, " "), "\n")
  local file = {}
  function file.row(...)
    local cells = table.pack(...)
    for i = 1, cells.n do cells[i] = num(cells[i]) end
    f:write(table.concat(cells, " "), "\n")
  end
  function file.blank(n) f:write(("\n"):rep(n or 1)) end
  function file.close() f:close() end
  return file
end

-- values.gp: gnuplot variables, in the order they were set.
local values = {}
local function value(name, v)
  values[#values + 1] = ("%s = %s"):format(name, num(v))
end

-- Worlds --------------------------------------------------------------------------

-- A world with the block types the scenes use. `ice` is the game's slipperiness as a
-- float (0.98F), as bp.minecraft defines it; `ladder` is a 2/16 plate against +Z.
local function world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:define_block{ name = "top_slab", boxes = { { 0, 0.5, 0, 1, 1, 1 } } }
  w:define_block{ name = "layer", boxes = { { 0, 0, 0, 1, 0.25, 1 } } }
  w:define_block{ name = "ice", slipperiness = 0.9800000190734863, ice = true,
                  normal_cube = false }
  w:define_block{ name = "water", liquid = "water" }
  w:define_block{ name = "lava", liquid = "lava" }
  w:define_block{ name = "ladder", boxes = { { 0, 0, 0.875, 1, 1, 1 } }, climbable = true }
  return w
end

local FLOOR = 64 -- every scene's floor is stone at y = 63: its top face is y = 64

-- A Beta player (0.6 x 1.8) standing on the floor: a new entity is in the air for its
-- first tick (it has no velocity yet, so it does not reach the floor), lands on the
-- second. Scenes start their clocks after this.
local function stand(w, x, z, rules)
  local e = w:spawn{ x = x, y = FLOOR, z = z, rules = rules }
  w:step()
  w:step()
  assert(e.on_ground and e.y == FLOOR, "the player did not land")
  return e
end

local function horizontal(dx, dz) return math.sqrt(dx * dx + dz * dz) end

-- 1. jump_arc.svg: the Beta jump tick by tick, under no ceiling and three ceilings --
--
-- The ceiling cases are given as the gap between the floor and the ceiling's lower
-- face. A player is 1.8 high, so its feet can rise to gap - 1.8 at most: 3.0 cuts
-- the top of the arc (the apex is about 1.25), 2.5 and 2.0 cut it early. A gap of a
-- whole number of blocks is a stone ceiling, a half one a top slab.
local function jump_arc()
  local CASES = { false, 3.0, 2.5, 2.0 }
  local TICKS = 14
  local heights, limits = {}, {}
  for c, gap in ipairs(CASES) do
    local w = world()
    w:fill(-3, FLOOR - 1, -3, 3, FLOOR - 1, 3, "stone")
    if gap then
      local cell = FLOOR + math.floor(gap)
      w:fill(-3, cell, -3, 3, cell, 3, gap % 1 == 0 and "stone" or "top_slab")
    end
    local e = stand(w, 0.5, 0.5)
    heights[c] = { [0] = e.y - FLOOR }
    e.jumping = true -- one tick of jump input: the jump starts on the ground
    for t = 1, TICKS do
      w:step()
      e.jumping = false
      heights[c][t] = e.y - FLOOR
    end
    if gap then limits[#limits + 1] = { gap, gap - e.height } end
    if not gap then
      local apex, at = 0, 0
      for t = 1, TICKS do
        if heights[c][t] > apex then apex, at = heights[c][t], t end
      end
      local landed
      for t = 1, TICKS do
        if heights[c][t] == 0 then landed = t break end
      end
      value("jump_apex", apex)
      value("jump_apex_tick", at)
      value("jump_landed_tick", landed)
    end
  end
  local f = dat("jump_arc.dat", { "tick", "no ceiling", "ceiling 3.0 blocks above the floor",
    "ceiling 2.5 blocks above the floor", "ceiling 2.0 blocks above the floor" })
  for t = 0, TICKS do
    f.row(t, heights[1][t], heights[2][t], heights[3][t], heights[4][t])
  end
  f.close()
  -- The highest the feet can go under each ceiling (gap - height): dashed lines, one
  -- `index` block each.
  local g = dat("jump_limits.dat", { "tick", "feet limit" }, true)
  for _, l in ipairs(limits) do
    g.row(0, l[2])
    g.row(TICKS, l[2])
    g.blank(2)
  end
  g.close()
end

-- 2. speed_curves.svg: horizontal speed from standstill, then after the input stops --
--
-- Speed is the distance moved in each tick, from positions: e.vz after a step has
-- the friction of that tick already applied (docs/beta173.md), so it is not the
-- speed a viewer sees. The input is held long enough for the slowest (ice) to reach
-- its terminal speed, then released.
local function speed_curves()
  local HOLD, COAST = 100, 80
  local CASES = {
    { name = "walk", title = "walking on stone", floor = "stone" },
    { name = "sneak", title = "sneaking on stone", floor = "stone", sneak = true },
    { name = "ice", title = "walking on ice (slipperiness 0.98)", floor = "ice" },
  }
  local speeds = {}
  for c, case in ipairs(CASES) do
    local w = world()
    w:fill(-3, FLOOR - 1, -3, 3, FLOOR - 1, 200, case.floor)
    local e = stand(w, 0.5, 0.5)
    e.yaw, e.forward, e.sneaking = 0, 1, case.sneak or false -- toward +Z
    speeds[c] = { [0] = 0.0 }
    local slid = 0 -- distance covered after the input stopped
    for t = 1, HOLD + COAST do
      if t == HOLD + 1 then e.forward = 0 end
      local x, z = e.x, e.z
      w:step()
      speeds[c][t] = horizontal(e.x - x, e.z - z)
      if t > HOLD then slid = slid + speeds[c][t] end
    end
    local terminal = speeds[c][HOLD]
    local reach -- the first tick at 99 % of the terminal speed
    for t = 1, HOLD do
      if speeds[c][t] >= 0.99 * terminal then reach = t break end
    end
    local stop -- the first tick after the release below 1 % of it
    for t = HOLD + 1, HOLD + COAST do
      if speeds[c][t] < 0.01 * terminal then stop = t - HOLD break end
    end
    value(case.name .. "_terminal", terminal)
    value(case.name .. "_reach99", reach)
    value(case.name .. "_stop1", stop or -1)
    value(case.name .. "_slid", slid)
  end
  value("speed_release", HOLD)
  local titles = { "tick" }
  for c, case in ipairs(CASES) do titles[c + 1] = case.title end
  local f = dat("speed_curves.dat", titles)
  for t = 0, HOLD + COAST do f.row(t, speeds[1][t], speeds[2][t], speeds[3][t]) end
  f.close()
end

-- 3. liquids_ladder.svg: height over ticks in water, in lava and on a ladder --------
--
-- A pool DEPTH blocks deep on the floor. Sinking: spawned with its head just under
-- the surface, no input. Swimming up: spawned on the pool's floor, jump held the
-- whole time; it reaches the surface and bobs there. Heights are the feet above the
-- pool's floor.
local function liquids_ladder()
  local DEPTH, TICKS = 8, 240
  value("pool_depth", DEPTH)
  local function pool(liquid, y, jump)
    local w = world()
    w:fill(-3, FLOOR - 1, -3, 3, FLOOR - 1, 3, "stone")
    w:fill(-3, FLOOR, -3, 3, FLOOR + DEPTH - 1, 3, liquid)
    local e = w:spawn{ x = 0.5, y = y, z = 0.5 }
    e.jumping = jump
    local h = { [0] = e.y - FLOOR }
    for t = 1, TICKS do
      w:step()
      h[t] = e.y - FLOOR
    end
    return h
  end
  local head_under = FLOOR + DEPTH - 1.8 - 0.2 -- the head 0.2 below the surface
  local cases = {
    pool("water", head_under, false), pool("water", FLOOR, true),
    pool("lava", head_under, false), pool("lava", FLOOR, true),
  }
  -- Heights, then the vertical speed of each tick (the height it gained).
  local f = dat("liquids.dat", { "tick", "water: sinking, no input", "water: holding jump",
    "lava: sinking, no input", "lava: holding jump", "water: sinking, no input",
    "water: holding jump", "lava: sinking, no input", "lava: holding jump" })
  local function gained(c, t) return t > 0 and cases[c][t] - cases[c][t - 1] or 0.0 end
  for t = 0, TICKS do
    f.row(t, cases[1][t], cases[2][t], cases[3][t], cases[4][t],
      gained(1, t), gained(2, t), gained(3, t), gained(4, t))
  end
  f.close()
  -- The steady vertical speeds, read at tick 45: the drag (0.8F in water, 0.5 in
  -- lava per tick) has settled them, and none has reached the floor or the surface.
  local mid = 45
  value("water_sink_speed", -gained(1, mid))
  value("water_swim_speed", gained(2, mid))
  value("lava_sink_speed", -gained(3, mid))
  value("lava_swim_speed", gained(4, mid))

  -- The ladder: a column of ladder plates on a wall, on the floor. The player walks
  -- into it (forward, yaw 0 = +Z) for CLIMB ticks, then lets go of forward and sneaks
  -- (holds on) for HOLD ticks, then lets go of everything and slides down.
  local CLIMB, HOLD, SLIDE = 60, 30, 60
  local w = world()
  w:fill(-3, FLOOR - 1, -3, 3, FLOOR - 1, 3, "stone")
  w:fill(-3, FLOOR, 1, 3, FLOOR + 16, 1, "stone")
  w:fill(0, FLOOR, 0, 0, FLOOR + 14, 0, "ladder")
  local e = stand(w, 0.5, 0.5)
  e.yaw, e.forward = 0, 1
  local g = dat("ladder.dat", { "tick", "on the ladder",
    "vertical speed" })
  g.row(0, e.y - FLOOR, 0.0)
  local climb_speed, slide_speed
  for t = 1, CLIMB + HOLD + SLIDE do
    if t == CLIMB + 1 then e.forward, e.sneaking = 0, true end
    if t == CLIMB + HOLD + 1 then e.sneaking = false end
    local y = e.y
    w:step()
    g.row(t, e.y - FLOOR, e.y - y)
    if t == CLIMB then climb_speed = e.y - y end
    if t == CLIMB + HOLD + 10 then slide_speed = y - e.y end
  end
  g.close()
  value("ladder_climb_end", CLIMB)
  value("ladder_hold_end", CLIMB + HOLD)
  value("ladder_climb_speed", climb_speed)
  value("ladder_slide_speed", slide_speed)
end

-- 4. resolvers.svg: the per-axis and the swept resolver on the same course ----------
--
-- Top-down: a fast entity moved by the same displacement (1.2, 0, 1.2) again and
-- again with `e:move` (Beta's per-axis clip, X after Y, Z last) and `e:move_swept`,
-- past a pillar, into a wall built block by block (seams) and into an inside corner.
-- At the pillar the two part: the per-axis clip moves X first, which takes the box
-- past the pillar's -Z face, and then Z is blocked; the swept box meets the pillar's
-- -X face on its diagonal path and slides up along it.
-- Side view: Beta rules walking over a 0.25 layer, a 0.5 slab and a full block with
-- `resolver = "axis"` and `resolver = "swept"`: the per-axis step-up lands exactly on
-- the step, the swept step assist lifts the box by step_height (0.5) and lets gravity
-- settle it, losing speed in the air.
local function resolvers()
  local MOVE, CALLS = { 1.2, 0, 1.2 }, 12
  local function topdown_course()
    local w = world()
    for x = -2, 14 do
      for z = -2, 10 do w:set_block(x, FLOOR - 1, z, "stone") end
    end
    w:fill(2, FLOOR, 2, 2, FLOOR + 1, 2, "stone")                     -- the pillar
    for x = -2, 12 do w:set_block(x, FLOOR, 8, "stone") end           -- the wall z = 8
    for z = -2, 8 do w:set_block(12, FLOOR, z, "stone") end           -- the wall x = 12
    return w
  end
  local paths = {}
  for i, method in ipairs{ "move", "move_swept" } do
    local w = topdown_course()
    local e = w:spawn{ x = 0.5, y = FLOOR, z = 0.5 }
    paths[i] = { [0] = { e.x, e.z } }
    for c = 1, CALLS do
      e[method](e, MOVE[1], MOVE[2], MOVE[3])
      paths[i][c] = { e.x, e.z }
    end
    if i == 1 then
      -- The block boxes a slice at the entity's waist meets: pillar and walls.
      local f = dat("resolvers_blocks.dat", { "x1", "z1", "x2", "z2" }, true)
      for _, b in ipairs(w:boxes_in(bp.Collider(-3, FLOOR + 0.5, -3, 15, FLOOR + 0.6, 11))) do
        local x1, _, z1, x2, _, z2 = b:unpack()
        f.row(x1, z1, x2, z2)
      end
      f.close()
      value("half_width", e.width / 2)
    end
  end
  local f = dat("resolvers_topdown.dat", { "call", "e:move (per-axis) x", "z",
    "e:move_swept x", "z" })
  for c = 0, CALLS do
    f.row(c, paths[1][c][1], paths[1][c][2], paths[2][c][1], paths[2][c][2])
  end
  f.close()
  value("topdown_calls", CALLS)
  value("topdown_end_gap_x", paths[1][CALLS][1] - paths[2][CALLS][1])
  value("topdown_end_gap_z", paths[1][CALLS][2] - paths[2][CALLS][2])
  value("move_dx", MOVE[1])
  value("move_dz", MOVE[3])

  local TICKS = 60
  local function side_course()
    local w = world()
    for x = -2, 16 do w:set_block(x, FLOOR - 1, 0, "stone") end
    w:fill(3, FLOOR, 0, 4, FLOOR, 0, "layer")
    w:fill(5, FLOOR, 0, 6, FLOOR, 0, "slab")
    w:fill(7, FLOOR, 0, 8, FLOOR, 0, "stone")
    return w
  end
  local walks = {}
  for i, resolver in ipairs{ "axis", "swept" } do
    local w = side_course()
    local e = stand(w, 0.5, 0.5, bp.rules.beta173{ resolver = resolver })
    e.yaw, e.forward = -90, 1 -- toward +X
    walks[i] = { [0] = { e.x, e.y } }
    for t = 1, TICKS do
      w:step()
      walks[i][t] = { e.x, e.y }
    end
    if i == 1 then
      local g = dat("resolvers_side_blocks.dat", { "x1", "y1", "x2", "y2" }, true)
      for _, b in ipairs(w:boxes_in(bp.Collider(-2, FLOOR - 1, 0.4, 17, FLOOR + 2, 0.6))) do
        local x1, y1, _, x2, y2 = b:unpack()
        g.row(x1, y1, x2, y2)
      end
      g.close()
    end
  end
  local g = dat("resolvers_side.dat", { "tick", "resolver 'axis'", "y",
    "resolver 'swept'", "y" })
  for t = 0, TICKS do
    g.row(t, walks[1][t][1], walks[1][t][2], walks[2][t][1], walks[2][t][2])
  end
  g.close()
  value("side_ticks", TICKS)
  value("side_axis_x", walks[1][TICKS][1])
  value("side_swept_x", walks[2][TICKS][1])
end

-- 5. crowd.svg: 40 players spawned almost on one point, with each push model --------
--
-- They stand still (no input) on an open floor, spawned on a sunflower spiral of
-- radius 0.1 around (0.5, 0.5): no two at one point, every pair overlapping. The
-- trails show each entity's position every tick; the curves, the mean over the
-- entities of each one's deepest overlap with another (circles of radius width/2 in
-- X/Z, the shape the "separate" push uses) and the r.m.s. distance from the spawn
-- point.
local function crowd()
  local N, TICKS, STATS_TICKS = 40, 100, 20
  local CX, CZ, R = 0.5, 0.5, 0.1
  local GOLDEN = math.pi * (3 - math.sqrt(5))
  local MODELS = { "separate", "beta173" }
  local stats = {}
  for m, push in ipairs(MODELS) do
    local w = world()
    w:fill(-20, FLOOR - 1, -20, 20, FLOOR - 1, 20, "stone")
    local rules = bp.rules.beta173{ push = push }
    for i = 1, N do
      local r = R * math.sqrt(i / N)
      w:spawn{ x = CX + r * math.cos(i * GOLDEN), y = FLOOR, z = CZ + r * math.sin(i * GOLDEN),
               rules = rules }
    end
    local es = w:entities()
    local trails = {}
    for i = 1, N do trails[i] = {} end
    stats[m] = {}
    for t = 0, TICKS do
      if t > 0 then w:step() end
      local deepest, sq = {}, 0
      for i = 1, N do
        local a = es[i]
        trails[i][t] = { a.x, a.z }
        deepest[i] = 0
        sq = sq + (a.x - CX) ^ 2 + (a.z - CZ) ^ 2
      end
      for i = 1, N do
        for j = i + 1, N do
          local a, b = es[i], es[j]
          local o = (a.width + b.width) / 2 - horizontal(a.x - b.x, a.z - b.z)
          if o > deepest[i] then deepest[i] = o end
          if o > deepest[j] then deepest[j] = o end
        end
      end
      local sum = 0
      for i = 1, N do sum = sum + deepest[i] end
      stats[m][t] = { sum / N, math.sqrt(sq / N) }
    end
    -- The paths, one polyline each, without the ticks an entity did not move (most
    -- of them: the crowd is still long before the end); then the last positions.
    local f = dat("crowd_" .. push .. ".dat", { "tick", "x", "z" }, true)
    for i = 1, N do
      local path = trails[i]
      for t = 0, TICKS do
        local p, q = path[t], path[t - 1]
        if not q or p[1] ~= q[1] or p[2] ~= q[2] then f.row(t, p[1], p[2]) end
      end
      f.blank(1)
    end
    f.close()
    local g = dat("crowd_" .. push .. "_end.dat", { "x", "z" }, true)
    for i = 1, N do g.row(trails[i][TICKS][1], trails[i][TICKS][2]) end
    g.close()
    value("crowd_" .. push .. "_rms_end", stats[m][TICKS][2])
    local settled -- the first tick with no overlap left
    for t = 0, TICKS do
      if stats[m][t][1] == 0 then settled = t break end
    end
    value("crowd_" .. push .. "_settled", settled or -1)
  end
  local f = dat("crowd_stats.dat", { "tick", "push 'separate': mean deepest overlap",
    "push 'beta173': mean deepest overlap", "push 'separate': r.m.s. distance",
    "push 'beta173': r.m.s. distance" })
  for t = 0, STATS_TICKS do
    f.row(t, stats[1][t][1], stats[2][t][1], stats[1][t][2], stats[2][t][2])
  end
  f.close()
  value("crowd_n", N)
  value("crowd_ticks", TICKS)
  value("crowd_cx", CX)
  value("crowd_cz", CZ)
end

-- The scenes, in the order of the figures --------------------------------------------

jump_arc()
speed_curves()
liquids_ladder()
resolvers()
crowd()

local f = assert(io.open(DIR .. "/values.gp", "w"))
f:write("# Scalars measured by tools/plots/plots.lua (generated; do not edit).\n")
f:write(table.concat(values, "\n"), "\n")
f:close()
