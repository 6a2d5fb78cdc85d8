-- A long deterministic run that touches every part of the step, reduced to one
-- digest line. CI runs it on every build it makes (GCC and clang, -O0 to -O3, -Os,
-- LTO) and requires the same digest from each: results must not depend on the
-- compiler or the optimization level (the build uses -ffp-contract=off, so no
-- fused multiply-add changes a rounding).
--
-- The scene: the specs' rough seeded terrain (slabs, fences, water, lava, ladders,
-- ice, walls) with soul sand, cobwebs and flowing water added; Beta entities on both resolvers,
-- MC-CPP entities, both push models, solid entities, a filter and a heading hook,
-- driven by seeded random input for 1,500 ticks of 1/20 s.
--
-- Usage (from the top directory, with the module to test first on package.cpath):
--   lua5.4 -e "package.path='./lua/?.lua;./lua/?/init.lua;./spec/?.lua;'..package.path;
--              package.cpath='./build/lua5.4/?.so;'..package.cpath" bench/trajectory.lua
-- prints "trajectory <digest> <entities> <ticks>". The same digest under every
-- interpreter (lua5.1 .. lua5.4, luajit, each with its own build/<interpreter>/).
local bp = require "blockphys"
local H = require "helpers.world"
local C = require "helpers.compat" -- the same bits on every Lua (5.1 .. 5.4, LuaJIT)

local SIZE, TICKS = 24, 1500

local function build_world(rand)
  local w = H.world()
  H.terrain(w, 77, SIZE)
  w:define_block{ name = "soul_sand", boxes = { { 0, 0, 0, 1, 0.875, 1 } }, velocity_factor = 0.4 }
  w:define_block{ name = "cobweb", boxes = {}, web = true }
  for _ = 1, 12 do
    local x, z = rand(SIZE) - 1, rand(SIZE) - 1
    w:set_block(x, 3, z, rand(2) == 1 and "soul_sand" or "cobweb")
  end
  -- flowing and falling water beside the pools: currents (flow.c)
  for level = 1, 15 do
    w:define_block{ name = "water" .. level, liquid = "water", level = level }
  end
  for _ = 1, 40 do
    local x, z = rand(SIZE) - 1, rand(SIZE) - 1
    w:set_block(x, 3 + rand(3), z, "water" .. rand(15))
  end
  w:add_collider(bp.Collider(8, 3, 8, 9.5, 4, 9.5))
  return w
end

-- Rules tables, one per kind of entity (each spawn copies its table).
local function kinds()
  return {
    bp.rules.beta173{ step_sink_fix = true, push_out_of_blocks = true },
    bp.rules.beta173{ resolver = "swept", push = "separate" },
    bp.rules.beta173{ heading = function(_, strafe, forward, k)
      return strafe * k * 1.5, forward * k * 1.5
    end },
    -- the documents' integrator (integrator = "mccpp"): the digest predates the
    -- "exact" default and pins the documents' algorithm bit for bit
    bp.rules.mccpp{ integrator = "mccpp" },
    bp.rules.mccpp{ resolver = "axis", push = "separate", integrator = "mccpp" },
    -- range ends whose zeros meet zeros of the other sign (a build-dependent fmin/fmax
    -- there once changed the sign of a velocity's zero)
    bp.rules.beta173{ step_sink_fix = true, ladder_speed = 0, ladder_descent = 0 },
  }
end

local function spawn_all(w, rand)
  local es, rules = {}, kinds()
  for i = 1, 30 do
    es[i] = w:spawn{ x = 1 + rand() * (SIZE - 2), y = 6.5, z = 1 + rand() * (SIZE - 2),
                     rules = rules[(i - 1) % #rules + 1], yaw = rand() * 360,
                     solid = i % 7 == 0 }
  end
  -- one entity refuses its neighbours with an odd index (a filter in Lua)
  es[1].filter = function(_, other) return other.yaw > 0 end
  return es
end

-- 32-bit FNV-1a over the bytes of s, one at a time: words would keep a change of
-- their top bit (a double's sign, as of a zero) in the top bit for ever, and two such
-- changes would cancel.
local byte, bxor, mul32 = string.byte, C.bxor, C.mul32
local function fnv(h, s)
  for i = 1, #s do
    h = mul32(bxor(h, byte(s, i)), 16777619)
  end
  return h
end

local function state(e)
  local x, y, z = e:position()
  local vx, vy, vz = e:velocity()
  local flags = (e.on_ground and 1 or 0) + (e.collided_horizontally and 2 or 0)
    + (e.in_water and 4 or 0) + (e.in_lava and 8 or 0) + (e.in_web and 16 or 0)
  return C.pack("<dddddddi4", x, y, z, vx, vy, vz, e.fall_distance, flags)
end

local function run()
  local rand = H.rng(4242)
  local w = build_world(rand)
  local es = spawn_all(w, rand)
  local h = 2166136261
  for _ = 1, TICKS do
    H.random_input(es, rand)
    w:step(0.05)
    for _, e in ipairs(es) do h = fnv(h, state(e)) end
  end
  return h, #es
end

local digest, n = run()
print(("trajectory %08x %d %d"):format(digest, n, TICKS))
