--- walkthrough.lua: a Beta 1.7.3 player on an obstacle course, tick by tick.
--
-- Builds a small course along +Z (stairs of a slab and a full block, a one-block
-- wall, a two-block gap, a stretch of ice, a water pool, a ladder up a four-block
-- wall and a ledge over a drop), then drives a player with `bp.rules.beta173()` and
-- the default 0.6 x 1.8 box through it with scripted, partly reactive input. It
-- prints a summary saying whether each section was passed and, with --verbose, one
-- line per tick before it (position, velocity, flags and what happened). This is what
-- `make demo` runs (`make demo VERBOSE=1` for the per-tick tables).
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/walkthrough.lua [--verbose]
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
--
-- The chunk returns the summary table (sections passed, ticks, ...) for a spec.
local bp = require "blockphys"

-- 1. The course -------------------------------------------------------------------
-- The floor is stone at y = 63 (top face y = 64) over x = 0..2, and the player
-- walks along x = 1.5 at yaw 0 (forward = +Z). Section by section, in Z:
local STAIRS_Z = 5          -- slab at z = 5, full blocks at z = 6..7, then down
local WALL_Z = 11           -- one block high: too high to step, must be jumped
local GAP_Z1, GAP_Z2 = 14, 15 -- no floor, a pit three blocks deep
local ICE_Z1, ICE_Z2 = 18, 26 -- the floor is ice
local POOL_Z1, POOL_Z2 = 30, 37 -- water at y = 61..63, surface level with the floor
local LADDER_Z = 44         -- ladder blocks at z = 44, y = 64..67, on a wall at z = 45
local TOP_Y = 68            -- the platform on top of the wall: z = 45..48, x = 0..8
local LEDGE_Z = 49          -- the platform's edge: a four-block drop beyond it
local LEDGE_X = 5           -- how far along the edge the player sneaks (x)

local world = bp.World()
local STONE = world:define_block{ name = "stone" }
local SLAB = world:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
local ICE = world:define_block{ name = "ice", slipperiness = 0.98 }
local WATER = world:define_block{ name = "water", boxes = {}, liquid = "water" }
-- Beta's ladder: a 2/16 plate in the game; here 3/16, against the wall on +Z.
local LADDER = world:define_block{ name = "ladder", boxes = { { 0, 0, 13 / 16, 1, 1, 1 } },
                                   climbable = true }

world:fill(0, 63, -2, 2, 63, 60, STONE)                  -- floor
world:fill(0, 64, STAIRS_Z, 2, 64, STAIRS_Z, SLAB)           -- stairs: slab, then blocks
world:fill(0, 64, STAIRS_Z + 1, 2, 64, STAIRS_Z + 2, STONE)
world:fill(0, 64, WALL_Z, 2, 64, WALL_Z, STONE)           -- the wall
world:fill(0, 60, GAP_Z1, 2, 63, GAP_Z2, 0)              -- the gap (0 is air)
world:fill(0, 60, GAP_Z1, 2, 60, GAP_Z2, STONE)          -- ... with a bottom
world:fill(0, 63, ICE_Z1, 2, 63, ICE_Z2, ICE)            -- ice
world:fill(-1, 60, POOL_Z1 - 1, 3, 63, POOL_Z2 + 1, STONE) -- the pool's basin
world:fill(0, 61, POOL_Z1, 2, 63, POOL_Z2, WATER)        -- ... filled with water
world:fill(0, 64, LADDER_Z + 1, 8, TOP_Y - 1, LEDGE_Z - 1, STONE) -- wall and platform
world:fill(0, 64, LADDER_Z, 2, TOP_Y - 1, LADDER_Z, LADDER)
world:fill(3, 63, LEDGE_Z - 6, 8, 63, 60, STONE)         -- floor under the drop

local function block_under(x, y, z) -- the block whose top a foot at (x, y, z) rests on
  return world:get_block(math.floor(x), math.floor(y) - 1, math.floor(z))
end

-- 2. The player and its controller --------------------------------------------------
-- Each section sets the inputs, may react to the last tick (`react`), and ends when
-- `done` holds. `s` is the section's own scratch table.
local rules = bp.rules.beta173()
local player = world:spawn{ x = 1.5, y = 64, z = 0.5, rules = rules }

local notes = {} -- measured facts for the summary

local sections = {
  { name = "stairs", what = "walk up a slab (+0.5) and a full block (+0.5 again)",
    forward = 1,
    done = function(e) return e.z > STAIRS_Z + 3.5 and e.on_ground end,
    passed = function(s) return s.steps == 2 and s.max_y == 65 end },
  { name = "wall", what = "a one-block wall: too high to step, so jump when blocked",
    forward = 1,
    react = function(e) e.jumping = e.on_ground and e.collided_horizontally end,
    done = function(e) return e.z > WALL_Z + 1.5 and e.on_ground end,
    passed = function(s, e) return s.jumps >= 1 and e.y == 64 end },
  { name = "gap", what = "a two-block gap: jump at the last moment",
    forward = 1,
    react = function(e)
      -- Jump when the back of the box will have left the floor by the next tick.
      local back = e.z - e.width / 2 + e.vz
      e.jumping = e.on_ground and block_under(e.x, e.y, back) == 0
    end,
    done = function(e) return e.z > GAP_Z2 + 1.5 and e.on_ground end,
    passed = function(s, e) return s.jumps == 1 and s.min_y == 64 and e.y == 64 end },
  { name = "ice", what = "let go of forward on the ice and slide",
    forward = 1,
    react = function(e, s)
      local on_ice = e.on_ground and block_under(e.x, e.y, e.z) == ICE
      if not s.coast_from and on_ice and e.z > ICE_Z1 + 0.5 then
        s.coast_from = e.z -- let go here ...
        e.forward = 0
      elseif s.coast_from and not s.coasted and math.abs(e.vz) < 0.005 then
        s.coasted = e.z - s.coast_from -- ... and walk on once (nearly) stopped
        notes.ice_slide = s.coasted
        e.forward = 1
      end
    end,
    done = function(e) return e.z > ICE_Z2 + 1.5 end,
    passed = function(s) return (s.coasted or 0) > 1 end },
  { name = "pool", what = "swim across with jump held, breach at the far shore",
    forward = 1,
    -- Hold jump from the first splash on (on dry land it would make the player hop).
    react = function(e, s) s.wet = s.wet or e.in_water; e.jumping = s.wet and not e.on_ground end,
    done = function(e) return e.z > POOL_Z2 + 1.5 and e.on_ground end,
    passed = function(s, e) return s.water > 0 and s.breaches > 0 and e.y == 64 end },
  { name = "ladder", what = "walk into the ladder to climb it, step onto the platform",
    forward = 1,
    done = function(e) return e.on_ground and e.y == TOP_Y and e.z > LADDER_Z + 1.5 end,
    passed = function(s, e) return s.climb > 0 and e.y == TOP_Y end },
  { name = "ledge", what = "sneak to the edge, then along it, pushed towards the drop",
    forward = 1, sneaking = true,
    react = function(e, s, before)
      -- At the edge the sneak guard holds z (vz stays: the guard shortens the move,
      -- not the velocity); then turn to +X (yaw -90: forward is +X, strafe right is
      -- +Z) and keep pressing towards the drop.
      if not s.turned and e.z > LEDGE_Z and e.z == before.z and e.on_ground then
        s.turned = true
        s.edge_z = e.z
        e.yaw, e.forward, e.strafe = -90, 1, -1
      end
    end,
    done = function(e) return e.x > LEDGE_X end,
    passed = function(s, e)
      return s.turned and s.min_y == TOP_Y and e.y == TOP_Y and e.z > LEDGE_Z
        and e.z == s.edge_z end },
  { name = "drop", what = "stop sneaking: the same push now takes the player over",
    forward = 0, strafe = -1, sneaking = false,
    done = function(e) return e.on_ground and e.y < TOP_Y end,
    passed = function(_, e) return e.y == 64 end },
}

-- 3. Events: what changed in one tick ---------------------------------------------

local function events(e, before, s)
  local ev = {}
  local function add(name) ev[#ev + 1] = name end
  local climbable = world:get_block(math.floor(e.x), math.floor(e.y), math.floor(e.z)) == LADDER
  if before.jumping and before.on_ground and not before.in_water and e.vy > 0 then
    add("jump"); s.jumps = s.jumps + 1
  end
  if before.on_ground and e.on_ground and e.y > before.y then
    add("step"); s.steps = s.steps + 1
  end
  if e.on_ground and not before.on_ground then add("land") end
  if e.on_ground and block_under(e.x, e.y, e.z) == ICE then add("ice") end
  if e.in_water then
    add(before.in_water and "swim" or "splash"); s.water = s.water + 1
  end
  if before.in_water and e.vy == rules.breach_impulse then
    add("breach"); s.breaches = s.breaches + 1
  end
  if climbable and e.y > before.y then add("ladder"); s.climb = s.climb + 1 end
  if e.sneaking and e.on_ground and block_under(e.x, e.y, e.z) == 0 then add("edge") end
  if before.in_water and not e.in_water and not e.on_ground then
    add("surface") -- bobbing: out of the water test box for a few ticks
  elseif not e.on_ground and not e.in_water and not climbable and e.vy < 0 then
    add("fall")
  end
  return table.concat(ev, ",")
end

-- 4. Run -----------------------------------------------------------------------------

local HEADER = (" %4s %8s %8s %8s %8s %8s %8s %-4s %-4s %s"):format(
  "tick", "x", "y", "z", "vx", "vy", "vz", "gnd", "wet", "event")
local function yn(b) return b and "yes" or "-" end

-- The per-tick tables only with --verbose (as a script: `arg` is this chunk's).
local VERBOSE = type(arg) == "table" and arg[1] == "--verbose"
local function trace(line)
  if VERBOSE then print(line) end
end

local tick, max_y, wet_ticks, path = 0, player.y, 0, 0
local results = {}
print(("walkthrough: a Beta player (%.1f x %.1f) from (%.1f, %.1f, %.1f)"):format(
  player.width, player.height, player.x, player.y, player.z))
for _, sec in ipairs(sections) do
  trace(("\n== %s: %s"):format(sec.name, sec.what))
  trace(HEADER)
  player.forward, player.strafe = sec.forward or 0, sec.strafe or 0
  player.jumping, player.sneaking = sec.jumping or false, sec.sneaking or false
  local s = { jumps = 0, steps = 0, water = 0, breaches = 0, climb = 0, ticks = 0,
              max_y = player.y, min_y = player.y }
  repeat
    local before = { x = player.x, y = player.y, z = player.z, on_ground = player.on_ground,
                     in_water = player.in_water, jumping = player.jumping }
    world:step()
    tick, s.ticks = tick + 1, s.ticks + 1
    local e = player
    local ev = events(e, before, s)
    trace((" %4d %8.3f %8.3f %8.3f %8.4f %8.4f %8.4f %-4s %-4s %s"):format(
      tick, e.x, e.y, e.z, e.vx, e.vy, e.vz, yn(e.on_ground), yn(e.in_water), ev))
    path = path + math.sqrt((e.x - before.x) ^ 2 + (e.y - before.y) ^ 2 + (e.z - before.z) ^ 2)
    max_y = math.max(max_y, e.y)
    s.max_y, s.min_y = math.max(s.max_y, e.y), math.min(s.min_y, e.y)
    if e.in_water then wet_ticks = wet_ticks + 1 end
    if sec.react then sec.react(e, s, before) end
  until sec.done(player) or s.ticks >= 400
  results[#results + 1] = { name = sec.name, passed = sec.passed(s, player) and s.ticks < 400,
                            ticks = s.ticks }
end

-- 5. The ice, measured on its own -------------------------------------------------
-- On the course the player let go before reaching full speed. Here: walk at full
-- speed on a long floor of one block type, let go, and measure the slide.
local function slide(block_def)
  local w = bp.World()
  local id = w:define_block(block_def)
  w:fill(0, 63, 0, 0, 63, 200, id)
  local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173() }
  local function step() -- one tick; returns the distance moved along z
    local z = e.z
    w:step()
    return e.z - z
  end
  e.forward = 1
  local top
  for _ = 1, 100 do top = step() end
  e.forward = 0
  local z0 = e.z
  repeat until step() < 1e-4
  return e.z - z0, top
end

-- 6. Summary -------------------------------------------------------------------------

if not VERBOSE then
  print("(the per-tick tables: make demo VERBOSE=1, or examples/walkthrough.lua --verbose)")
end
print(("\nsummary: %d ticks (%.2f s), path %.2f blocks, straight line %.2f blocks"):format(
  tick, tick / 20, path, math.sqrt((player.x - 1.5) ^ 2 + (player.y - 64) ^ 2 +
                                   (player.z - 0.5) ^ 2)))
print(("  max height y = %.4f, %d ticks in water, slid %.3f blocks on ice without input"):format(
  max_y, wet_ticks, notes.ice_slide or 0))
for _, b in ipairs{ { name = "stone" }, { name = "ice", slipperiness = 0.98 } } do
  local dist, top = slide(b)
  print(("  on %-5s: top speed %.4f blocks/tick, then slides %.3f blocks after letting go"):format(
    b.name, top, dist))
  notes[b.name == "ice" and "ice_slide_full" or "stone_slide"] = dist
end
local all = true
for _, r in ipairs(results) do
  print(("  %-7s %-6s (%d ticks)"):format(r.name, r.passed and "passed" or "FAILED", r.ticks))
  all = all and r.passed
end
print(all and "every section passed" or "SOME SECTIONS FAILED")

return { passed = all, sections = results, ticks = tick, max_y = max_y,
         wet_ticks = wet_ticks, ice_slide = notes.ice_slide, path = path,
         slide = { stone = notes.stone_slide, ice = notes.ice_slide_full } }
