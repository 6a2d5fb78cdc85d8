--- Litematica schematics (`.litematic`) for `blockphys.schematic.load`.
--
-- A Litematica document holds one or more regions under `Regions`, each with a
-- `Position` and a `Size` (`{x, y, z}`; a negative size extends the region from its
-- position toward the negative side), a `BlockStatePalette` (`{Name, Properties}`
-- compounds) and `BlockStates`: a long array of palette indices, `bits` bits each
-- (`max(2, bits needed for palette size - 1)`; an array of another length is
-- refused, as Litematica refuses it), packed from the low bits of each long
-- upward and running on into the next long, cells in the order x, then z, then y.
-- The regions are joined into one schematic over their bounding box: cells no
-- region covers are air, and where regions overlap the one whose name sorts last
-- wins (air included; `blockphys.schematic.region_join`). At most `MAX_REGIONS` regions.
--
-- Source: the Litematica schematic format as the mod's source (LitematicaBitArray,
-- LitematicaSchematic) defines it; our own reader.
--
-- @module blockphys.schematic.litematic
-- @local

local nbt = require "blockphys.nbt"
local compat = require "blockphys.compat"
local cells = require "blockphys.schematic.cells"
local region_join = require "blockphys.schematic.region_join"

local litematic = {}

local format, floor = string.format, math.floor
local AIR = "minecraft:air"
local MAX_EXTENT = 65535
--- Regions one document may hold (Litematica's own files have a few).
litematic.MAX_REGIONS = 64

--- Whether a decoded root compound looks like a Litematica document.
function litematic.detect(root)
  return nbt.kind(root.Regions) == "compound"
end

-- An {x, y, z} compound of integers in [lo, hi], as three values.
local function xyz(c, where, lo, hi)
  if nbt.kind(c) ~= "compound" then return nil, "missing or invalid " .. where end
  for _, k in ipairs({ "x", "y", "z" }) do
    if not cells.int_in(c[k], lo, hi) then
      return nil, format("%s.%s must be an integer in %d..%d", where, k, lo, hi)
    end
  end
  return c.x, c.y, c.z
end

-- Bits per cell, Litematica's rule: those needed for npal - 1, at least 2.
local function bits_for(npal)
  local bits, n = 0, npal - 1
  while n > 0 do bits, n = bits + 1, floor(n / 2) end
  return math.max(2, bits)
end

-- Region `name` as {x0, y0, z0 (min corner), sx, sy, sz (extent), palette, longs,
-- bits, where}, or nil and a message.
local function read_region(name, r)
  local where = format("region %q", name)
  if nbt.kind(r) ~= "compound" then return nil, where .. " is not a compound" end
  local px, py, pz = xyz(r.Position, where .. " Position", -2 ^ 31, 2 ^ 31 - 1)
  if not px then return nil, py end
  local sx, sy, sz = xyz(r.Size, where .. " Size", -MAX_EXTENT, MAX_EXTENT)
  if not sx then return nil, sy end
  if sx == 0 or sy == 0 or sz == 0 then return nil, where .. ": Size has a zero extent" end
  local palette, perr = cells.palette_list(r.BlockStatePalette, where .. " BlockStatePalette",
    cells.MAX_PALETTE)
  if not palette then return nil, perr end
  local longs = r.BlockStates
  if nbt.kind(longs) ~= "long_array" then return nil, where .. ": missing or invalid BlockStates" end
  local ax, ay, az = math.abs(sx), math.abs(sy), math.abs(sz)
  local volume = ax * ay * az
  local bits = bits_for(#palette)
  -- Shorter fails in Litematica when a cell is read; longer loads, the rest unread.
  local need = floor((volume * bits + 63) / 64)
  if #longs < need then
    return nil, format("%s: BlockStates has %d longs, %d cells of %d bits need %d",
      where, #longs, volume, bits, need)
  end
  -- the min corner: a negative size runs from the position toward lower coordinates
  local function lo(p, s) return s < 0 and p + s + 1 or p end
  return {
    x0 = lo(px, sx), y0 = lo(py, sy), z0 = lo(pz, sz), sx = ax, sy = ay, sz = az,
    palette = palette, longs = longs, bits = bits, where = where,
  }
end

-- 2^k for k = 0 .. 32, as integers where Lua has them.
local POW2 = { [0] = 1 }
for k = 1, 32 do POW2[k] = POW2[k - 1] * 2 end

-- Calls emit(map[v]) for each cell's palette index v (0-based) of region g, in
-- order. Returns nil and a message at the first index past the palette.
-- The longs are read as 32-bit halves (nbt.long_words: exact on every Lua), low half
-- first, so the bit stream is one of 32-bit words and a cell (bits <= 32) spans at
-- most two of them: shifts and masks become floor division and modulo by 2^k.
local function decode(g, map, emit)
  local bits, npal = g.bits, #g.palette
  local hl = nbt.long_words(g.longs) -- hi, lo of long 1, hi, lo of long 2, ...
  local mask = POW2[bits]
  for i = 0, g.sx * g.sy * g.sz - 1 do
    local bit = i * bits
    local w = floor(bit / 32) -- 0-based 32-bit word: the low half of long w/2 first
    local shift = bit - w * 32
    local k = w - w % 2 -- 2 * (0-based long)
    local word = hl[k + 2 - w % 2] -- w even: the low half (k + 2), odd: the high (k + 1)
    local v = floor(word / POW2[shift])
    if shift + bits > 32 then
      local w2 = w + 1
      local k2 = w2 - w2 % 2
      v = v + (hl[k2 + 2 - w2 % 2] % POW2[shift + bits - 32]) * POW2[32 - shift]
    else
      v = v % mask
    end
    if v >= npal then
      return nil, format("%s cell %d: palette index %d out of range (palette has %d entries)",
        g.where, i, v, npal)
    end
    emit(map[v])
  end
  return true
end

-- One palette for all regions (states in first-use order) and, per region, the
-- global index of each of its entries.
local function merge_palettes(regions)
  local palette, index_of = {}, {}
  for _, g in ipairs(regions) do
    g.global = {}
    for i, state in ipairs(g.palette) do
      if not index_of[state] then
        palette[#palette + 1] = state
        index_of[state] = #palette - 1
      end
      g.global[i - 1] = index_of[state]
    end
  end
  return palette, index_of
end

-- Region g's cells as a string of nb-byte global indices, in its own x, z, y order.
local function region_string(g, nb)
  local out = cells.packer(nb)
  local ok, err = decode(g, g.global, out.push)
  if not ok then return nil, err end
  return out.result()
end

-- The bounding box of the regions.
local function bounds(regions)
  local x0, y0, z0, x1, y1, z1 = math.huge, math.huge, math.huge, -math.huge, -math.huge, -math.huge
  for _, g in ipairs(regions) do
    x0, y0, z0 = math.min(x0, g.x0), math.min(y0, g.y0), math.min(z0, g.z0)
    x1, y1, z1 = math.max(x1, g.x0 + g.sx), math.max(y1, g.y0 + g.sy), math.max(z1, g.z0 + g.sz)
  end
  return { x0 = x0, y0 = y0, z0 = z0, w = x1 - x0, h = y1 - y0, l = z1 - z0 }
end

--- Parses a Litematica document's root compound. Returns the fields of a loaded
-- schematic (see `blockphys.schematic`) with `format = "litematic"` and `offset`
-- the joined box's min corner in the document's coordinates, or nil and a message.
-- `max_bytes` bounds the joined cell string (cells × bytes per cell).
function litematic.parse(root, max_bytes)
  local names = {}
  for name in pairs(root.Regions) do
    if type(name) == "string" then names[#names + 1] = name end
  end
  if #names == 0 then return nil, "Regions is empty" end
  if #names > litematic.MAX_REGIONS then
    return nil, format("%d regions (at most %d)", #names, litematic.MAX_REGIONS)
  end
  table.sort(names) -- overlaps resolve the same way in every run
  local regions = {}
  for i, name in ipairs(names) do
    local g, err = read_region(name, root.Regions[name])
    if not g then return nil, err end
    regions[i] = g
  end
  local box = bounds(regions)
  if box.w > MAX_EXTENT or box.h > MAX_EXTENT or box.l > MAX_EXTENT then
    return nil, format("regions span %dx%dx%d blocks (at most %d on each axis)",
      box.w, box.h, box.l, MAX_EXTENT)
  end
  if box.x0 < -2 ^ 31 or box.y0 < -2 ^ 31 or box.z0 < -2 ^ 31 then
    return nil, "regions reach below the int32 range"
  end
  local palette, index_of = merge_palettes(regions)
  local covered = 0
  for _, g in ipairs(regions) do covered = covered + g.sx * g.sy * g.sz end
  local ncells = box.w * box.h * box.l
  if not index_of[AIR] and (covered < ncells or #regions > 1) then
    palette[#palette + 1] = AIR
    index_of[AIR] = #palette - 1
  end
  local nb = cells.bytes_for(#palette)
  if ncells * nb > max_bytes then
    return nil, format("regions of %dx%dx%d cells would take %d bytes (max_bytes %d)",
      box.w, box.h, box.l, ncells * nb, max_bytes)
  end
  if covered * nb > max_bytes then -- each region is decoded before the join
    return nil, format("regions hold %d cells, which would take %d bytes (max_bytes %d)",
      covered, covered * nb, max_bytes)
  end
  local strings = {}
  for i, g in ipairs(regions) do
    local s, err = region_string(g, nb)
    if not s then return nil, err end
    strings[i] = s
  end
  local blocks = #regions == 1 and strings[1]
    or region_join.join(regions, strings, box, index_of[AIR], nb)
  local dv = root.MinecraftDataVersion
  return {
    width = box.w, height = box.h, length = box.l, offset = { box.x0, box.y0, box.z0 },
    palette = palette, blocks = blocks, cell_bytes = nb, format = "litematic",
    data_version = compat.is_integer(dv) and dv or nil,
  }
end

return litematic
