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
local byte, char, find = string.byte, string.char, string.find
local is_int = compat.is_integer

-- Cell integer formats by `cell_bytes` (see the schematic table in
-- `blockphys.schematic`).
local CELL_FORMATS = cells.FORMATS

local INT32_MIN, INT32_MAX = -2 ^ 31, 2 ^ 31 - 1
local MAX_EXTENT = 4294967296 -- 2^32, cells along one axis of the int32 range

--- The message for argument n of paste, counted as the caller counts them: from
-- the world (paste) or from the schematic (World:paste, whose self is argument 0).
function args.bad_arg(n, msg)
  if n == 0 then return format("calling 'paste' on bad self (%s)", msg) end
  return format("bad argument #%d to 'paste' (%s)", n, msg)
end
local bad_arg = args.bad_arg

-- The message for cell `cell` (0-based) holding index v, past a palette of npal.
local function bad_cell(n, cell, v, npal)
  return bad_arg(n, format("schematic cell %d: palette index %d out of range (palette has %d entries)",
    cell, v, npal))
end

-- A pattern matching a byte past 0 .. npal - 1 (1 <= npal <= 255): one range, so
-- each byte costs one comparison in C. ']' and '%' cannot end a range in a Lua
-- pattern set: the range then ends one byte lower and the byte follows, escaped.
-- Where a pattern cannot hold "\0" (Lua 5.1, LuaJIT) the zero byte is the class "%z"
-- and the range starts at "\1".
local function past_palette(npal)
  local last, tail = char(npal - 1), ""
  if last == "]" or last == "%" then last, tail = char(npal - 2), "%" .. last end
  local nul = compat.PATTERN_NUL
  if not nul then return "[^\0-" .. last .. tail .. "]" end
  return "[^" .. nul .. (last ~= "\0" and "\1-" .. last or "") .. tail .. "]"
end

-- The palette entries (1-based, ascending) that cells of `blocks` (one byte each)
-- use, or nil and the message of the first cell whose index is past the palette.
-- In C: one search for a byte past the palette, then one plain search (memchr) per
-- palette entry, each stopping at its first cell; at most 256 of them.
local function used_bytes(blocks, npal, n)
  if npal < 256 and #blocks > 0 then
    local at = npal == 0 and 1 or find(blocks, past_palette(npal))
    if at then return nil, bad_cell(n, at - 1, byte(blocks, at), npal) end
  end
  local used = {}
  for v = 0, math.min(npal, 256) - 1 do
    if find(blocks, char(v), 1, true) then used[#used + 1] = v + 1 end
  end
  return used
end

--- The palette entries (1-based, ascending) that the cells of `blocks` (`nb` bytes
-- each) use: paste defines those alone, so that entries no cell uses cost nothing.
-- Or nil and the message of the first cell whose index is past the palette (`npal`
-- entries; the schematic being argument n).
function args.used_entries(blocks, nb, npal, n)
  if nb == 1 then return used_bytes(blocks, npal, n) end
  local fmt = CELL_FORMATS[nb]
  local seen, used, cell = {}, {}, 0
  for pos = 1, #blocks, nb do
    local v = unpack(fmt, blocks, pos)
    if not seen[v] then
      if v >= npal then return nil, bad_cell(n, cell, v, npal) end
      seen[v] = true
      used[#used + 1] = v + 1
    end
    cell = cell + 1
  end
  table.sort(used)
  return used
end

--- The schematic, argument n: a checked copy of the fields paste uses, each read
-- once (the shape table's block_def runs later and may change the schematic table,
-- a hand-built one or one with metamethods, and what is placed must be what was
-- checked), with `used`, the palette entries its cells use (`used_entries`); or
-- nil and the message.
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
  local used, err = args.used_entries(blocks, nb, npal, n)
  if not used then return nil, err end
  sc.used = used
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
