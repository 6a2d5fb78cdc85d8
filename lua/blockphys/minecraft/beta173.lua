--- Collision shapes of Minecraft Beta 1.7.3 for the block states of a modern build.
--
-- `blockphys.minecraft` gives today's vanilla shapes. A few blocks that Beta
-- 1.7.3 already had collided differently there, and with the Beta rules those
-- differences decide where an entity stops, climbs or stands:
--
-- | block | Beta 1.7.3 | modern |
-- |---|---|---|
-- | fences (`*_fence`, not gates) | the whole cell, 1.5 high, any connections | post and arms, 1.5 high |
-- | ladder | 0.125 thick | 0.1875 thick |
-- | snow layers | none for 1-3 layers, 0.5 high for 4-8 | one layer lower than drawn, 0 to 0.875 |
-- | chests (chest, trapped_chest) | full cube | 14/16 high, inset 1/16 |
-- | farmland | full cube (drawn 15/16 high) | 15/16 high |
-- | pistons, extended (`piston`, `sticky_piston`) | full cube (the base) | a 12/16 base |
-- | cake | 0.4375 high (0.5 - 0.0625) | 0.5 high |
-- | beds (`*_bed`) | the whole cell, 0.5625 high | a 0.5625-high base on legs 3/16 high |
-- | stairs, bottom half | low half + full back half; corners as straight | slab + back quarter; corners |
--
-- The fence shape goes to every fence, later ones (nether brick, other woods)
-- included: a Beta world has one fence block, and a Beta-faithful run treats every
-- fence alike. Beta's stairs never form corners; upside-down stairs (`half=top`),
-- which Beta did not have either, keep their modern shape. A straight stair is two
-- boxes in Beta (the low half and a full-height back half) where the modern table
-- has a slab and a back quarter; their union is the same, but a box already inside
-- one of them is clipped by the other (a box inside the slab's back half meets the
-- quarter above it, not Beta's back half, which it is inside), so bottom stairs take
-- Beta's two boxes. Every other state gets
-- the modern shape: blocks added after Beta have no Beta shape, and the rest (slabs,
-- doors, trapdoors, cactus, soul sand, repeaters, the non-colliding plants,
-- torches, rails, ...) collide alike in both.
--
-- A definition whose boxes differ from the modern one is named with the suffix
-- `@beta173` (for example `"minecraft:ladder[facing=north]@beta173"`,
-- `"minecraft:oak_fence@beta173"`), so that one world can hold both kinds of a
-- block without `World:paste` reusing the wrong one.
--
-- Source: the Beta 1.7.3 block classes (BlockFence, BlockLadder, BlockSnow,
-- BlockFarmland, BlockCake, BlockChest, BlockPistonBase, BlockStairs, BlockBed;
-- `jacobo-mc/mc_b1.7.3_release`, the S1
-- decompile of docs/beta173.md, whose section 8 gives the ladder's
-- 0.125); our own transcription. Metadata maps to states as the MCEdit import of
-- `blockphys.schematic` writes them (snow: layers = metadata + 1).
--
-- Usage: `world:paste(schem, x, y, z, bp.minecraft.beta173)`. Also required as
-- `blockphys.minecraft_beta173`, its first name (lua/blockphys/minecraft_beta173.lua).
-- @module blockphys.minecraft.beta173

local compat = require "blockphys.compat"
local states = require "blockphys.state"
local vanilla = require "blockphys.minecraft.vanilla"
local copy_boxes = require("blockphys.minecraft.boxes").copy
local outlines = require "blockphys.minecraft.outlines"

local beta173 = {}

local FULL = { 0, 0, 0, 1, 1, 1 }

-- BlockFence: the whole cell, (float)y + 1.5F high.
local FENCE = { { 0, 0, 0, 1, 1.5, 1 } }

-- BlockBed: the block bounds, 0.5625F high, for both halves (no legs).
local BED = { { 0, 0, 0, 1, 0.5625, 1 } }

-- BlockLadder: 0.125F thick against the wall it hangs on, which lies opposite
-- its facing (metadata 2, 3, 4, 5 = facing north, south, west, east).
local LADDER = {
  north = { { 0, 0, 0.875, 1, 1, 1 } },
  south = { { 0, 0, 0, 1, 1, 0.125 } },
  west = { { 0.875, 0, 0, 1, 1, 1 } },
  east = { { 0, 0, 0, 0.125, 1, 1 } },
}

-- The value of a numeric property when it is one of the integers lo..hi,
-- else `default` (as the modern table treats an invalid value).
local function int_prop(v, lo, hi, default)
  local n = compat.tointeger(tonumber(v))
  if n and n >= lo and n <= hi and tostring(n) == v then return n end
  return default
end

-- BlockCake: x from (1 + 2 * bites) / 16, z inset 0.0625F, top 0.5F - 0.0625F.
local function cake(props)
  local bites = int_prop(props.bites, 0, 6, 0)
  return { { (1 + 2 * bites) / 16, 0, 0.0625, 0.9375, 0.4375, 0.9375 } },
    "[bites=" .. bites .. "]"
end

-- BlockSnow: no box below metadata 3 (layers 1-3), else 0.5F high.
local function snow(props)
  local layers = int_prop(props.layers, 1, 8, 1)
  local boxes = layers >= 4 and { { 0, 0, 0, 1, 0.5, 1 } } or {}
  return boxes, "[layers=" .. layers .. "]"
end

local function ladder(props)
  local facing = LADDER[props.facing] and props.facing or "north"
  return LADDER[facing], "[facing=" .. facing .. "]"
end

-- BlockStairs.getCollidingBoundingBoxes by metadata 0..3 (tall half +X, -X, +Z, -Z),
-- which is the modern facing east, west, south, north.
local STAIRS = {
  east = { { 0, 0, 0, 0.5, 0.5, 1 }, { 0.5, 0, 0, 1, 1, 1 } },
  west = { { 0, 0, 0, 0.5, 1, 1 }, { 0.5, 0, 0, 1, 0.5, 1 } },
  south = { { 0, 0, 0, 1, 0.5, 0.5 }, { 0, 0, 0.5, 1, 1, 1 } },
  north = { { 0, 0, 0, 1, 1, 0.5 }, { 0, 0, 0.5, 1, 0.5, 1 } },
}

-- A bottom stair, corner or straight, collides as Beta's straight stair of its
-- facing; upside-down stairs keep the modern shape (nil).
local function stairs(props)
  if props.half == "top" then return nil end
  local facing = STAIRS[props.facing] and props.facing or "north"
  return STAIRS[facing], "[facing=" .. facing .. "]"
end

-- Fixed Beta shapes by bare name (the properties do not matter).
local FIXED = {
  chest = { FULL }, trapped_chest = { FULL }, farmland = { FULL },
  -- an extended piston's base collides as a whole cube (BlockPistonBase)
  piston = { FULL }, sticky_piston = { FULL },
}

-- Whole-cube boxes in Beta without being rendered as a whole cube: no normal cube
-- (pushOutOfBlocks). Pistons already have none from bp.minecraft; chests are one in
-- Beta (textured whole cubes).
local NOT_NORMAL = { farmland = true }

-- Beta's boxes for a namespace-less name and its properties, and the property
-- part of the definition's name; nil when the modern shape applies.
local function beta_shape(base, props)
  if base == "fence" or base:sub(-6) == "_fence" then return FENCE, "" end
  if FIXED[base] then return FIXED[base], "" end
  -- every coloured bed (Beta's one bed); the straw bed came later
  if base:sub(-4) == "_bed" and base ~= "straw_bed" then return BED, "" end
  if base == "ladder" then return ladder(props) end
  if base == "cake" then return cake(props) end
  if base == "snow" then return snow(props) end
  if base:sub(-7) == "_stairs" then return stairs(props) end
  return nil
end

local function same_boxes(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    for k = 1, 6 do
      if a[i][k] ~= b[i][k] then return false end
    end
  end
  return true
end

--- Block definition for one block state, with Beta 1.7.3's collision boxes
-- where they differ from today's.
--
-- Same contract as `blockphys.minecraft.block_def` (so it can be passed to
-- `World:paste` as its `shapes`); only `name`, `boxes` and `outline` can differ, as
-- the module description lists (outlines: `blockphys.minecraft.outlines.beta173`,
-- named with `@beta173` too).
-- @tparam string state block state string (namespace optional)
-- @treturn table definition for `world:define_block` (boxes in block units,
--   block-local)
-- @treturn boolean `true` if the state was recognised, `false` if it was
--   guessed as a full cube
-- @raise "bad argument #1 to 'block_def' (string expected, got T)"
-- Source: the Beta 1.7.3 block classes named in the module description for
-- the shapes it lists; the rest as `blockphys.minecraft`.
function beta173.block_def(state)
  if type(state) ~= "string" then
    error(string.format("bad argument #1 to 'block_def' (string expected, got %s)", type(state)), 2)
  end
  local def, known = vanilla.block_def(state)
  local name, props = states.parse_state(state)
  local base = name and states.vanilla_base(name)
  if not base then return def, known end
  local boxes, suffix = beta_shape(base, props)
  if boxes and not same_boxes(boxes, def.boxes) then
    def.boxes = copy_boxes(boxes)
    if def.liquid then -- waterlogged: a definition of its own
      suffix = suffix == "" and "[waterlogged=true]" or suffix:sub(1, -2) .. ",waterlogged=true]"
    end
    def.name = "minecraft:" .. base .. suffix .. "@beta173"
    if NOT_NORMAL[base] then def.normal_cube = false end
  end
  -- Beta's outline where it differs (a definition of its own, as for boxes)
  local outline = def.outline and outlines.beta173(base, props)
  if outline and not same_boxes(outline, def.outline) then
    def.outline = copy_boxes(outline)
    if def.name:sub(-8) ~= "@beta173" then def.name = def.name .. "@beta173" end
  end
  return def, known
end

--- Whether a block name has a known collision shape: `blockphys.minecraft.known`
-- itself (Beta's shapes replace known ones and add no names).
-- @function known
-- @tparam string name block name, with or without namespace
-- @treturn boolean false also for a value that is not a string (never raises)
beta173.known = vanilla.known

--- Whether a block name is one of the air blocks: `blockphys.minecraft.is_air`.
-- @function is_air
-- @tparam string name block name, with or without namespace
-- @treturn boolean false also for a value that is not a string (never raises)
beta173.is_air = states.is_air

--- Splits a block state string: `blockphys.minecraft.parse_state`.
-- @function parse_state
-- @tparam string s e.g. `"minecraft:oak_fence[east=true]"`
-- @treturn[1] string the block name
-- @treturn[1] table its properties
-- @return[2] nil
-- @treturn[2] string message (a malformed string or not a string; never raises)
beta173.parse_state = states.parse_state

return beta173
