--- What a vanilla block is made of, beyond its boxes, for `blockphys.minecraft`:
-- slipperiness, liquids, climbing, the blocks that slow what touches them, and
-- the materials the water current and pushOutOfBlocks read (define_block's solid,
-- ice and normal_cube). Tables by namespace-less name.
--
-- Source: vanilla Minecraft's block properties (Minecraft Wiki block pages; the
-- float constants of the game's code) and, for the materials, Beta 1.7.3's
-- (docs/beta173.md); our own tables.
--
-- @module blockphys.minecraft.materials
-- @local

local compat = require "blockphys.compat"
local set = require("blockphys.minecraft.boxes").set

local materials = {}

-- Fluids. Underwater plants are always full of water in vanilla.
local LIQUIDS = {
  water = "water", lava = "lava", bubble_column = "water",
  kelp = "water", kelp_plant = "water", seagrass = "water", tall_seagrass = "water",
}

-- Climbable blocks without collision boxes. Scaffolding is here too: in
-- vanilla its top only holds entities standing above it, which a static
-- box cannot express, and climbing is what it is used for.
local CLIMBABLE_PASSABLE = {
  "vine", "cave_vines", "cave_vines_plant", "weeping_vines", "weeping_vines_plant",
  "twisting_vines", "twisting_vines_plant", "scaffolding",
}

-- The game's float literal x (0.98F) widened to double, as define_block's own
-- default slipperiness 0.6F is: block_info then shows the game's constants.
local float = compat.float32

-- Friction factors different from the default 0.6F (float constants in the game).
local SLIPPERINESS = {
  ice = float(0.98), packed_ice = float(0.98), frosted_ice = float(0.98),
  blue_ice = float(0.989), slime_block = float(0.8),
}

local DEFAULT_SLIPPERINESS = float(0.6)

-- Blocks that slow what touches them, as Beta 1.7.3 has them (its BlockSoulSand and
-- BlockWeb; docs/beta173.md section 2): the X/Z velocity factor per
-- touched cell, and the webs.
local VELOCITY_FACTOR = { soul_sand = 0.4 }
local WEBS = { cobweb = true }

-- The water current (define_block's level, solid and ice; Beta's BlockFluid, whose
-- flow reads the material of the blocks beside the water): a liquid's level is its
-- state's (0 source, 1..7 flowing, 8..15 falling, as Beta's metadata). define_block
-- takes a block as solid when it has a box; these differ, as Beta's materials have
-- them (circuits, plants, snow and cloth are not solid; wood and stone are, boxes or
-- not). Only ice itself is Beta's ice material (packed and blue ice came later, with
-- a material of their own).
local NOT_SOLID = {
  ladder = true, snow = true, repeater = true, comparator = true, lily_pad = true,
  cocoa = true, moss_carpet = true, pale_moss_carpet = true,
}
local function ends_with_any(base, suffixes)
  for _, suffix in ipairs(suffixes) do
    if base:sub(-#suffix) == suffix then return true end
  end
  return false
end

local NOT_SOLID_SUFFIXES = { "_carpet" }
local SOLID_SUFFIXES = { "_sign", "_banner", "_pressure_plate" }
local SOLID_NO_BOX = { cobweb = true, moving_piston = true }
local ICE = { ice = true, frosted_ice = true }

-- pushOutOfBlocks (define_block's normal_cube; Beta's World.isBlockNormalCube: an
-- opaque material rendered as a whole cube): define_block takes the unit cube as one;
-- glass, leaves, ice and TNT are not (translucent materials), nor pistons (not
-- rendered as a whole cube); soul sand is (its box is lower, its block a whole cube).
-- Beta's glowstone is rock, so a normal cube.
local NOT_NORMAL = { glass = true, tinted_glass = true, ice = true, frosted_ice = true,
                     tnt = true, piston = true, sticky_piston = true }
local NOT_NORMAL_SUFFIXES = { "_stained_glass", "_leaves" }
local NORMAL = { soul_sand = true }

-- define_block's normal_cube where it differs from its default, else nil.
local function normal_cube_of(base)
  if base == nil then return nil end
  if NOT_NORMAL[base] or ends_with_any(base, NOT_NORMAL_SUFFIXES) then return false end
  if NORMAL[base] then return true end
  return nil
end

-- define_block's solid where it differs from its default (some box), else nil.
local function solid_of(base, boxes)
  if base == nil then return nil end
  if #boxes > 0 and (NOT_SOLID[base] or ends_with_any(base, NOT_SOLID_SUFFIXES)) then
    return false
  end
  if #boxes == 0 and (SOLID_NO_BOX[base] or ends_with_any(base, SOLID_SUFFIXES)) then
    return true
  end
  return nil
end

-- A liquid's level from its state, 1..15, or nil for 0 (a source) and anything else.
local function liquid_level(base, props)
  if not (base and LIQUIDS[base]) then return nil end
  local level = compat.tointeger(tonumber(props.level and props.level:match("^%d%d?$")))
  return level and level >= 1 and level <= 15 and level or nil
end

materials.LIQUIDS = LIQUIDS
materials.CLIMBABLE = set(compat.unpack_table(CLIMBABLE_PASSABLE))
materials.SLIPPERINESS = SLIPPERINESS
materials.DEFAULT_SLIPPERINESS = DEFAULT_SLIPPERINESS
materials.VELOCITY_FACTOR = VELOCITY_FACTOR
materials.WEBS = WEBS
materials.ICE = ICE
materials.normal_cube_of = normal_cube_of
materials.solid_of = solid_of
materials.liquid_level = liquid_level

return materials
