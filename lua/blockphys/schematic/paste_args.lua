--- The checks of `paste`'s arguments that need no world: the schematic, the
-- block coordinates and the definitions a shape table returns. Each returns the
-- checked value or `nil` and the message, made whole here from the argument number
-- it is given (`blockphys.schematic.paste` raises it at its caller's line).
--
-- Source: our own.
--
-- @module blockphys.schematic.paste_args
-- @local

local compat = require "blockphys.compat"
local cells = require "blockphys.schematic.cells"

local args = {}

local format = string.format
local unpack = compat.bytes.unpack
local byte = string.byte
local is_int = compat.is_integer

-- Cell integer formats by `cell_bytes` (see the schematic table in
-- `blockphys.schematic`).
local CELL_FORMATS = cells.FORMATS

local INT32_MIN, INT32_MAX = -2 ^ 31, 2 ^ 31 - 1
local MAX_EXTENT = 4294967296 -- 2^32, cells along one axis of the int32 range
local CHECK_RUN = 4096 -- cells per string.byte call in the index check

--- The message for argument n of paste, counted as the caller counts them: from
-- the world (paste) or from the schematic (World:paste, whose self is argument 0).
function args.bad_arg(n, msg)
  if n == 0 then return format("calling 'paste' on bad self (%s)", msg) end
  return format("bad argument #%d to 'paste' (%s)", n, msg)
end
local bad_arg = args.bad_arg

--- The schematic, argument n: a checked copy of the fields paste uses, each read
-- once (the shape table's block_def runs later and may change the schematic table,
-- a hand-built one or one with metamethods, and what is placed must be what was
-- checked); or nil and the message.
function args.schematic(schem, n)
  if type(schem) ~= "table" then return nil, bad_arg(n, "schematic expected, got " .. type(schem)) end
  local sc = {}
  for _, k in ipairs({ "width", "height", "length" }) do
    local v = schem[k]
    -- at most 2^32 (no int32 corner reaches past that): the sums and products below
    -- then stay exact
    if not is_int(v) or v < 0 or v > MAX_EXTENT then
      return nil, bad_arg(n, "schematic has no valid " .. k)
    end
    sc[k] = v
  end
  local nb, palette, blocks = schem.cell_bytes, schem.palette, schem.blocks
  if type(palette) ~= "table" or type(blocks) ~= "string" or not CELL_FORMATS[nb] then
    return nil, bad_arg(n, "schematic has no valid palette, blocks or cell_bytes")
  end
  -- In floats: integer products of such extents could wrap around to #blocks. A
  -- float product equal to #blocks (< 2^53) was exact at every stage.
  if #blocks ~= (sc.width + 0.0) * sc.height * sc.length * nb then
    return nil, bad_arg(n, "schematic blocks do not match its size")
  end
  -- Entries 1..#palette, holes included (ipairs would stop at the first hole, and
  -- indices are bounded by #palette below).
  -- #palette may come from __len: bound it by what 3-byte cells can index
  local npal = compat.len(palette)
  if not is_int(npal) or npal < 0 or npal > 2 ^ 24 then
    return nil, bad_arg(n, "schematic palette length must be an integer in 0..16777216")
  end
  sc.palette = {}
  for i = 1, npal do
    local state = palette[i]
    if type(state) ~= "string" then
      return nil, bad_arg(n, format("palette entry %d is not a string", i))
    end
    sc.palette[i] = state
  end
  -- `load` checks its indices; a table built or changed by hand may hold others.
  local fmt = CELL_FORMATS[nb]
  local from = 1
  if nb == 1 and npal < 256 then
    -- the largest byte of each run of cells, in C; the cell loop below then starts
    -- at the first run that holds a bad index (or past the end)
    from = #blocks + 1
    for i = 1, #blocks, CHECK_RUN do
      if math.max(0, byte(blocks, i, i + CHECK_RUN - 1)) >= npal then
        from = i
        break
      end
    end
  end
  if npal < 256 ^ nb then
    for pos = from, #blocks, nb do
      local v = unpack(fmt, blocks, pos)
      if v >= npal then
        return nil, bad_arg(n, format("schematic cell %d: palette index %d out of range (palette has %d entries)",
          math.floor((pos - 1) / nb), v, npal))
      end
    end
  end
  sc.cell_bytes, sc.blocks = nb, blocks
  return sc
end

--- The block coordinate argument n, of a box `extent` cells long on its axis, as
-- an integer; or nil and the message.
function args.coord(n, v, extent)
  local i = type(v) == "number" and compat.tointeger(v)
  if not i then
    return nil, bad_arg(n, type(v) == "number" and "number has no integer representation"
      or "number expected, got " .. type(v))
  end
  if i < INT32_MIN or i > INT32_MAX or (extent > 0 and i + extent - 1 > INT32_MAX) then
    return nil, bad_arg(n, "block coordinate out of the int32 range")
  end
  return i
end

-- A plain copy of a definition, each field read once, so that the scratch world's
-- check and the real definition see the same values (a definition's metamethods
-- could answer differently each time). Keys World:define_block does not know are
-- copied raw, so that it still reports them.
local DEF_FIELDS = {
  "name", "boxes", "slipperiness", "liquid", "climbable", "velocity_factor", "web",
  "level", "solid", "ice", "normal_cube",
}

local function copy_def(def)
  local out = {}
  local k = next(def)
  while k ~= nil do
    out[k] = rawget(def, k)
    k = next(def, k)
  end
  for _, f in ipairs(DEF_FIELDS) do out[f] = def[f] end
  if type(out.boxes) == "table" then
    -- what define_block reads: boxes[1 .. #boxes] (65 is already too many), and
    -- six numbers of each. #boxes may come from __len, read once here: a length
    -- define_block would refuse is handed on as it is (a proxy answering it), so
    -- that define_block's own check, the only one, raises for it in the scratch world.
    local n = compat.len(out.boxes)
    local count = compat.tointeger(n)
    if not count or count < 0 then
      out.boxes = setmetatable({}, { __len = function() return n end })
      return out
    end
    local boxes = {}
    for i = 1, math.min(count, 65) do
      local b = out.boxes[i]
      if type(b) == "table" then
        local c = {}
        for j = 1, 6 do c[j] = b[j] end
        b = c
      end
      boxes[i] = b
    end
    out.boxes = boxes
  end
  return out
end

--- A copy of what block_def(state) returned, or nil and the message (the shape
-- table being argument n).
function args.definition(state, def, n)
  if type(def) ~= "table" then
    return nil, bad_arg(n, format("block_def(%q) returned no definition with a name", state))
  end
  def = copy_def(def)
  if type(def.name) ~= "string" then
    return nil, bad_arg(n, format("block_def(%q) returned no definition with a name", state))
  end
  return def
end

return args
