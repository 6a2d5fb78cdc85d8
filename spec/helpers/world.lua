--- Shared builders for the specs: a world with the usual block types, flat floors,
-- a seeded rough terrain, Java float rounding, and state snapshots.
local bp = require "blockphys"
local C = require "helpers.compat"

local M = {}

--- Round a double to the nearest Java float (binary32), as the game's float maths does.
M.f32 = C.f32

local f32 = M.f32

--- The game's float literals widened to double (docs/beta173.md).
M.F = {
  jump = f32(0.42),      -- 0.42F
  drag = f32(0.98),      -- 0.98F
  input = f32(0.98),     -- forward/strafe damping 0.98F
  slip = f32(0.6),       -- default slipperiness 0.6F
  ice = f32(0.98),       -- ice slipperiness 0.98F
  air = f32(0.91),       -- 0.91F
  accel = f32(0.16277136),
  ground = f32(0.1),
  air_accel = f32(0.02),
  water_drag = f32(0.8),
  liquid_jump = f32(0.04),
  sneak_camera = f32(0.2),
  camera_decay = f32(0.4),
  half_width = f32(0.6) / 2,
  height = f32(1.8),
  ladder = f32(0.15),
}

--- A world with the block types the specs use: stone, slab (0.5 high), fence
-- (1.5 high post), ice, water, lava, ladder (0.125 thick on the +Z side).
function M.world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:define_block{ name = "fence", boxes = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 } } }
  w:define_block{ name = "ice", slipperiness = f32(0.98) }
  w:define_block{ name = "water", boxes = {}, liquid = "water" }
  w:define_block{ name = "lava", boxes = {}, liquid = "lava" }
  w:define_block{ name = "ladder", boxes = { { 0, 0, 0.875, 1, 1, 1 } }, climbable = true }
  return w
end

--- A flat floor of `block` (default stone) at height y, covering [-r, r] on X and Z
-- (default r = 16). Its top face is at y + 1.
function M.flat(w, y, block, r)
  r = r or 16
  w:fill(-r, y, -r, r, y, r, block or "stone")
end

--- A deterministic PRNG of our own (a 32-bit xorshift): the same seed gives the same
-- sequence on every Lua build. rng() -> float in [0, 1); rng(n) -> integer in [1, n].
-- (helpers/compat.lua's step and product: the same numbers on every Lua.)
local xorshift32, mul32 = C.xorshift32, C.mul32
function M.rng(seed)
  local s = (mul32(seed % 4294967296, 2654435761) + 1) % 4294967296
  if s == 0 then s = 1 end
  return function(n)
    s = xorshift32(s)
    if n then return s % n + 1 end
    return s / 4294967296
  end
end

--- One tick of seeded random input for each entity of `es` (forward, strafe, yaw,
-- jumping, sneaking changed now and then), drawn from `rand` (an `M.rng`).
function M.random_input(es, rand)
  for _, e in ipairs(es) do
    if rand(8) == 1 then e.forward = rand(3) - 2 end
    if rand(8) == 1 then e.strafe = rand(3) - 2 end
    if rand(10) == 1 then e.yaw = rand() * 360 - 180 end
    if rand(12) == 1 then e.jumping = not e.jumping end
    if rand(30) == 1 then e.sneaking = not e.sneaking end
  end
end

--- A rough seeded terrain on [0, size) x [0, size): stone columns of random height
-- (base y 0 .. 3), topped here and there by slabs, fences, ladders, ice, water pools
-- short walls and low roofs (2 above the column). Returns the height map h[x][z] (first free y of each column).
function M.terrain(w, seed, size)
  local rand = M.rng(seed)
  local h = {}
  w:fill(-1, -1, -1, size, -1, size, "stone")
  -- a 7-high wall around the area: higher than a jump from the highest pillar (5)
  w:fill(-1, 0, -1, size, 6, -1, "stone")
  w:fill(-1, 0, size, size, 6, size, "stone")
  w:fill(-1, 0, -1, -1, 6, size, "stone")
  w:fill(size, 0, -1, size, 6, size, "stone")
  for x = 0, size - 1 do
    h[x] = {}
    for z = 0, size - 1 do
      local top = rand(3) - 1 -- 0, 1 or 2 stone blocks
      if top > 0 then w:fill(x, 0, z, x, top - 1, z, "stone") end
      local r = rand(20)
      if r == 1 then w:set_block(x, top, z, "slab")
      elseif r == 2 then w:set_block(x, top, z, "fence")
      elseif r == 3 then w:set_block(x, top, z, "ladder"); w:set_block(x, top + 1, z, "ladder")
      elseif r == 4 then w:set_block(x, top, z, "water")
      elseif r == 5 and top > 0 then w:set_block(x, top - 1, z, "ice")
      elseif r == 6 then w:fill(x, top, z, x, top + 2, z, "stone"); top = top + 3
      elseif r <= 8 then w:set_block(x, top + 2, z, "stone") -- a 2-high tunnel roof
      end
      h[x][z] = top
    end
  end
  return h
end

--- A world whose only type is "stone", with a stone floor at y = 63 over [-half, half]
-- on X and Z (its top face is y = 64). Returns the world and the stone id.
function M.stone_floor(half)
  local w = bp.World()
  local stone = w:define_block{ name = "stone" }
  w:fill(-half, 63, -half, half, 63, half, stone)
  return w, stone
end

--- The whole file at path, or nil if it cannot be opened.
function M.read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

--- Call fn(bad) `count` times, each with a copy of the string doc in which one byte at
-- a seeded random position is replaced by a seeded random byte (M.rng).
function M.each_corruption(doc, seed, count, fn)
  local rand = M.rng(seed)
  for _ = 1, count do
    local pos = rand(#doc)
    fn(doc:sub(1, pos - 1) .. string.char(rand(256) - 1) .. doc:sub(pos + 1))
  end
end

--- Every observable field of an entity, for before/after comparisons.
function M.state(e)
  local s = { e:position() }
  for _, k in ipairs{ "vx", "vy", "vz", "on_ground", "collided_horizontally",
                      "collided_vertically", "in_water", "in_lava", "fall_distance",
                      "forward", "strafe", "yaw", "jumping", "sneaking", "y_size" } do
    s[k] = e[k]
  end
  return s
end

--- Exact hex image of every entity's x, z, vx and vz, a line each in creation order
-- (bit-identical comparisons of whole crowds).
function M.crowd_image(w)
  local out = {}
  for _, e in ipairs(w:entities()) do
    local hex = C.hexfloat
    out[#out + 1] = table.concat({ hex(e.x), hex(e.z), hex(e.vx), hex(e.vz) }, " ")
  end
  return table.concat(out, "\n")
end

--- Exact hex image of a number (bit-identical comparisons).
M.hex = C.hexfloat -- string.format("%a", x), on every Lua

--- Call `fn`, a one-line function making a single call, and check that it raises
-- exactly `msg` prefixed with the position of that line ("spec/x_spec.lua:12: "):
-- the error is reported at the caller's line, not inside blockphys.
function M.raises_here(msg, fn)
  local assert = require "luassert"
  local info = debug.getinfo(fn, "S")
  local ok, err = pcall(fn)
  assert.is_false(ok)
  assert.equal(info.short_src .. ":" .. info.linedefined .. ": " .. msg, err)
end

return M
