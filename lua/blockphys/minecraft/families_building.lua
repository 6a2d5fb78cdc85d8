--- Shape families of building blocks for `blockphys.minecraft`: slabs, stairs,
-- fences, panes and iron bars, walls, fence gates, ladders, doors, trapdoors,
-- carpets and snow layers.
--
-- A family is data: `props`, a list of `{key, default, allowed}` (the properties
-- that matter for collision, with the value a missing or invalid one takes), and
-- `build(p)`, the boxes for resolved properties `p`. The families are keyed by
-- the kind names that `blockphys.minecraft.shapes` gives block names.
--
-- Source: vanilla block shapes as documented on the Minecraft Wiki (minecraft.wiki)
-- block pages and, for the connecting blocks, the game's CrossCollisionBlock and
-- WallBlock; our own transcription (see `blockphys.minecraft`).
--
-- @module blockphys.minecraft.families_building
-- @local

local helpers = require "blockphys.minecraft.boxes"

local px, rotate, set = helpers.px, helpers.rotate, helpers.set
local FULL, LEFT, RIGHT = helpers.FULL, helpers.LEFT, helpers.RIGHT
local FACING4, BOOL, HALF = helpers.FACING4, helpers.BOOL, helpers.HALF

local families = {}

families.slab = {
  props = { { "type", "bottom", set("bottom", "top", "double") } },
  build = function(p)
    if p.type == "top" then return { { 0, 0.5, 0, 1, 1, 1 } } end
    if p.type == "double" then return { FULL } end
    return { { 0, 0, 0, 1, 0.5, 1 } }
  end,
}

-- Stairs: a half slab plus the upper (or, upside down, lower) half split
-- into quarter columns. Quarters are named by the two directions of their
-- corner; "straight" fills the two quarters on the facing side.
local QUARTER = {
  ["north west"] = { 0, 0, 0.5, 0.5 }, ["north east"] = { 0.5, 0, 1, 0.5 },
  ["south west"] = { 0, 0.5, 0.5, 1 }, ["south east"] = { 0.5, 0.5, 1, 1 },
}

local function quarter_key(a, b)
  -- Corner keys are written north/south first.
  if a == "east" or a == "west" then a, b = b, a end
  return a .. " " .. b
end

-- The half of the cell on side `dir`, as x1, z1, x2, z2.
local HALF_SIDE = {
  north = { 0, 0, 1, 0.5 }, south = { 0, 0.5, 1, 1 },
  west = { 0, 0, 0.5, 1 }, east = { 0.5, 0, 1, 1 },
}

families.stairs = {
  props = {
    { "facing", "north", FACING4 },
    { "half", "bottom", HALF },
    { "shape", "straight", set("straight", "inner_left", "inner_right", "outer_left", "outer_right") },
  },
  build = function(p)
    local f = p.facing
    local slab_y1, slab_y2, step_y1, step_y2 = 0, 0.5, 0.5, 1
    if p.half == "top" then slab_y1, slab_y2, step_y1, step_y2 = 0.5, 1, 0, 0.5 end
    local boxes = { { 0, slab_y1, 0, 1, slab_y2, 1 } }
    local function add(r) boxes[#boxes + 1] = { r[1], step_y1, r[2], r[3], step_y2, r[4] } end
    local shape = p.shape
    if shape == "outer_left" then
      add(QUARTER[quarter_key(f, LEFT[f])])
    elseif shape == "outer_right" then
      add(QUARTER[quarter_key(f, RIGHT[f])])
    else
      add(HALF_SIDE[f])
      -- Inner corners add the quarter behind the facing on the named side.
      local back = LEFT[LEFT[f]]
      if shape == "inner_left" then add(QUARTER[quarter_key(back, LEFT[f])]) end
      if shape == "inner_right" then add(QUARTER[quarter_key(back, RIGHT[f])]) end
    end
    return boxes
  end,
}

-- Connection properties of fences, panes and walls. Old (pre-1.16) walls
-- used true/false; newer ones none/low/tall. Any of these counts.
local CONNECT = set("true", "false", "none", "low", "tall")
local function connected(v) return v == "true" or v == "low" or v == "tall" end

local SIDES = { "north", "east", "south", "west" }

-- Arm of a cross-shaped block reaching from side `dir` across the centre to
-- the far side of its own width, `lo`..`hi` wide, 0..`h` high, as the game's
-- CrossCollisionBlock and WallBlock build them. Arms overlap the post; the
-- union is what collides, and it matters without a post: a wall with one arm
-- (up=false, which only files and commands make) reaches 11/16, not 8/16.
local function arm(dir, lo, hi, h)
  if dir == "north" then return { lo, 0, 0, hi, h, hi } end
  if dir == "south" then return { lo, 0, lo, hi, h, 1 } end
  if dir == "west" then return { 0, 0, lo, hi, h, hi } end
  return { lo, 0, lo, 1, h, hi }
end

local function cross_props(extra)
  local props = {}
  for i, d in ipairs(SIDES) do props[i] = { d, "false", CONNECT } end
  if extra then props[#props + 1] = extra end
  return props
end

-- post_lo..post_hi: post width; arm_lo..arm_hi: arm width; h: height.
local function cross_family(post_lo, post_hi, arm_lo, arm_hi, h, has_up)
  return {
    props = cross_props(has_up and { "up", "true", BOOL } or nil),
    build = function(p)
      local boxes = {}
      if not has_up or p.up == "true" then
        boxes[1] = { post_lo, 0, post_lo, post_hi, h, post_hi }
      end
      for _, d in ipairs(SIDES) do
        if connected(p[d]) then boxes[#boxes + 1] = arm(d, arm_lo, arm_hi, h) end
      end
      return boxes
    end,
  }
end

-- Fences: 4-wide post, arms as wide as the post, 24 tall (1.5 blocks) so
-- they cannot be jumped.
families.fence = cross_family(6 / 16, 10 / 16, 6 / 16, 10 / 16, 1.5, false)
-- Glass panes and iron bars: 2-wide core and arms, one block tall.
families.pane = cross_family(7 / 16, 9 / 16, 7 / 16, 9 / 16, 1, false)
-- Walls: 8-wide post (only when up=true), 6-wide arms; both low and tall
-- arms collide 1.5 high.
families.wall = cross_family(4 / 16, 12 / 16, 5 / 16, 11 / 16, 1.5, true)

families.fence_gate = {
  props = { { "facing", "north", FACING4 }, { "open", "false", BOOL } },
  build = function(p)
    if p.open == "true" then return {} end
    if p.facing == "north" or p.facing == "south" then
      return { { 0, 0, 6 / 16, 1, 1.5, 10 / 16 } }
    end
    return { { 6 / 16, 0, 0, 10 / 16, 1.5, 1 } }
  end,
}

-- Facing blocks whose north shape sits against the south edge: the facing
-- points away from the wall the block hangs on.
local THIN_SOUTH = px(0, 0, 13, 16, 16, 16)

families.ladder = {
  props = { { "facing", "north", FACING4 } },
  build = function(p) return rotate({ THIN_SOUTH }, p.facing) end,
}

-- Doors: 3/16 thick. Closed, the panel lies on the edge opposite the
-- facing; open, it swings against the side of its hinge.
families.door = {
  props = {
    { "facing", "north", FACING4 }, { "open", "false", BOOL },
    { "hinge", "left", set("left", "right") },
  },
  build = function(p)
    local north_frame
    if p.open ~= "true" then
      north_frame = THIN_SOUTH
    elseif p.hinge == "right" then
      north_frame = px(13, 0, 0, 16, 16, 16) -- east side, the right of north
    else
      north_frame = px(0, 0, 0, 3, 16, 16)
    end
    return rotate({ north_frame }, p.facing)
  end,
}

-- Trapdoors: a 3/16 plate at the bottom or top of the cell when closed;
-- open, standing against the edge opposite the facing.
families.trapdoor = {
  props = { { "facing", "north", FACING4 }, { "half", "bottom", HALF }, { "open", "false", BOOL } },
  build = function(p)
    if p.open == "true" then return rotate({ THIN_SOUTH }, p.facing) end
    if p.half == "top" then return { px(0, 13, 0, 16, 16, 16) } end
    return { px(0, 0, 0, 16, 3, 16) }
  end,
}

families.carpet = { props = {}, build = function() return { px(0, 0, 0, 16, 1, 16) } end }

-- Snow layers: vanilla collides one layer lower than it draws, so a single
-- layer can be walked through and eight layers are 7/8 high.
families.snow = {
  props = { { "layers", "1", set("1", "2", "3", "4", "5", "6", "7", "8") } },
  build = function(p)
    local layers = tonumber(p.layers)
    if layers <= 1 then return {} end
    return { { 0, 0, 0, 1, (layers - 1) / 8, 1 } }
  end,
}

-- The hanging pieces of pale moss carpet (bottom=false) are walked through.
families.pale_moss_carpet = {
  props = { { "bottom", "true", BOOL } },
  build = function(p) return p.bottom == "true" and { px(0, 0, 0, 16, 1, 16) } or {} end,
}

return families
