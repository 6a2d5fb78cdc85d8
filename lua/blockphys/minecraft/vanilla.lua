--- Today's vanilla block definitions: `block_def` and `known`, which
-- `blockphys.minecraft` exports (see that module for the conventions and
-- sources). Apart from the public module so that `blockphys.minecraft.beta173`,
-- which starts from these definitions, and `blockphys.minecraft`, which exports
-- both tables, need not require each other.
--
-- @module blockphys.minecraft.vanilla
-- @local

local states = require "blockphys.state"
local helpers = require "blockphys.minecraft.boxes"
local shapes = require "blockphys.minecraft.shapes"
local materials = require "blockphys.minecraft.materials"
local outlines = require "blockphys.minecraft.outlines"

local vanilla = {}

local concat, sort = table.concat, table.sort
local format = string.format
local FULL, copy_boxes = helpers.FULL, helpers.copy
local parse_state, full_name, vanilla_base = states.parse_state, states.full_name, states.vanilla_base
local shape_of = shapes.of
local LIQUIDS, CLIMBABLE_SET, ICE = materials.LIQUIDS, materials.CLIMBABLE, materials.ICE
local SLIPPERINESS, DEFAULT_SLIPPERINESS = materials.SLIPPERINESS, materials.DEFAULT_SLIPPERINESS
local VELOCITY_FACTOR, WEBS = materials.VELOCITY_FACTOR, materials.WEBS
local liquid_level, solid_of, normal_cube_of = materials.liquid_level, materials.solid_of,
  materials.normal_cube_of

--- Block definition for one block state.
--
-- The definition's `name` is the block name plus only the properties that
-- change its collision (or, for a block without collision, its outline), sorted, with defaults filled in (for example
-- `"minecraft:oak_stairs[facing=east,half=bottom,shape=straight]"`), so
-- states that collide alike (any rotation of a sign) share one definition;
-- `waterlogged=true` is kept (such a block is water too: `liquid = "water"`
-- with its boxes), and so is a liquid's level other than 0. Unknown blocks
-- become full cubes named by their bare block name.
-- @tparam string state block state string (namespace optional)
-- @treturn[1] table `{name=, boxes=, slipperiness=, liquid=, climbable=,
--   velocity_factor=, web=, level=, solid=, ice=, normal_cube=}` for
--   `world:define_block`; boxes in block units, block-local (soul sand:
--   velocity_factor 0.4; cobweb: web = true; a liquid's level 1..15 from its state,
--   also in its name; solid, ice and normal_cube only where Beta's material differs
--   from define_block's default, as docs/schematics.md lists; `outline` for the
--   blocks without collision that a cursor selects by a shape of their own:
--   `blockphys.minecraft.outlines`)
-- @treturn[1] boolean `true` if the state was recognised, `false` if it
--   was guessed as a full cube (unknown block or invalid property value)
-- @raise "bad argument #1 to 'block_def' (string expected, got T)"
-- Source: our own tables of today's vanilla collision shapes (module header).
function vanilla.block_def(state)
  if type(state) ~= "string" then
    error(format("bad argument #1 to 'block_def' (string expected, got %s)", type(state)), 2)
  end
  local name, props = parse_state(state)
  if not name then
    -- Malformed state: keep the text as the name so it stays unique.
    return { name = state, boxes = { FULL }, slipperiness = DEFAULT_SLIPPERINESS }, false
  end
  name = full_name(name)
  local base = vanilla_base(name)
  local boxes, parts, known
  if base then boxes, parts, known = shape_of(base, props) end
  if boxes == nil then
    boxes, parts, known = { FULL }, {}, false
  end
  -- A block without collision may still be selected: its outline, and the
  -- properties that change it, which then name it too.
  local outline
  if base and #boxes == 0 then
    local oparts
    outline, oparts = outlines.of(base, props)
    if outline then
      for _, p in ipairs(oparts) do parts[#parts + 1] = p end
      sort(parts)
    end
  end
  local level = liquid_level(base, props)
  if level then parts[#parts + 1] = "level=" .. level end
  -- A waterlogged block holds still water in its cell, its boxes kept (today's game:
  -- an entity in it is in water).
  local waterlogged = props.waterlogged == "true" and not (base and LIQUIDS[base])
  if waterlogged then
    parts[#parts + 1] = "waterlogged=true"
    sort(parts)
  end
  local def = {
    name = #parts > 0 and name .. "[" .. concat(parts, ",") .. "]" or name,
    boxes = copy_boxes(boxes),
    slipperiness = base and SLIPPERINESS[base] or DEFAULT_SLIPPERINESS,
    liquid = waterlogged and "water" or base and LIQUIDS[base] or nil,
    climbable = base and (CLIMBABLE_SET[base] or base == "ladder") or nil,
    velocity_factor = base and VELOCITY_FACTOR[base] or nil,
    web = base and WEBS[base] or nil,
    level = level,
    solid = solid_of(base, boxes),
    ice = base and ICE[base] or nil,
    normal_cube = normal_cube_of(base),
    outline = outline and copy_boxes(outline),
  }
  return def, known
end

--- Whether a block name (with or without namespace, no properties) has a
-- known collision shape.
-- @tparam string name e.g. `"minecraft:oak_fence"` or `"oak_fence"`
-- @treturn boolean false also for a value that is not a string (never raises)
-- Source: our own shape tables (see `block_def`).
function vanilla.known(name)
  if type(name) ~= "string" then return false end
  local base = vanilla_base(name)
  return base ~= nil and shape_of(base, {}) ~= nil
end

return vanilla
