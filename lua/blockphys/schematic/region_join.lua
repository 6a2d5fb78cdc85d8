--- Joining the regions of a Litematica schematic into one cell string (for
-- `blockphys.schematic.litematic`).
--
-- The box is cut into bands at every region's Y and Z boundaries, so that within a
-- (Y band, Z band) cell the same regions cover every row. Each such cell gets one
-- row layout (which region supplies which X span, air elsewhere, the region whose
-- name sorts last winning an overlap), computed once. Rows are then written from
-- that layout: rows no region covers are air runs added in bulk, so the work grows
-- with the regions' own rows and the output, not with the box's empty rows.
--
-- Source: our own.
--
-- @module blockphys.schematic.region_join
-- @local

local cells = require "blockphys.schematic.cells"

local join = {}

local concat, sub = table.concat, string.sub

-- Sorted unique band boundaries along one axis: 0, `size` and each region's ends.
local function boundaries(regions, lo_key, size_key, origin, size)
  local seen, out = { [0] = true, [size] = true }, { 0, size }
  for _, g in ipairs(regions) do
    for _, v in ipairs({ g[lo_key] - origin, g[lo_key] - origin + g[size_key] }) do
      if not seen[v] then seen[v] = true; out[#out + 1] = v end
    end
  end
  table.sort(out)
  return out
end

-- The regions (indices, in name order) covering [a, b) on one axis.
local function covering(list, regions, lo_key, size_key, origin, a, b)
  local out = {}
  for _, j in ipairs(list) do
    local g = regions[j]
    local lo = g[lo_key] - origin
    if lo <= a and b <= lo + g[size_key] then out[#out + 1] = j end
  end
  return out
end

-- A row layout: {x0, x1, j} spans in X order, j = region index or false for air.
-- Regions are painted in name order, so a later one covers an earlier one.
local function layout(active, regions, box_x0, w)
  local spans = { { 0, w, false } }
  for _, j in ipairs(active) do
    local a = regions[j].x0 - box_x0
    local b = a + regions[j].sx
    -- one pass in X order: the spans before a, the new span, the spans after b
    local next_spans, placed = {}, false
    for _, s in ipairs(spans) do
      if s[2] <= a then
        next_spans[#next_spans + 1] = s
      elseif s[1] >= b then
        if not placed then next_spans[#next_spans + 1] = { a, b, j }; placed = true end
        next_spans[#next_spans + 1] = s
      else
        if s[1] < a then next_spans[#next_spans + 1] = { s[1], a, s[3] } end
        if not placed then next_spans[#next_spans + 1] = { a, b, j }; placed = true end
        if s[2] > b then next_spans[#next_spans + 1] = { b, s[2], s[3] } end
      end
    end
    spans = next_spans
  end
  return spans
end

-- Writes row (y, z) of the box from its layout into the packer `out`.
local function write_row(out, spans, regions, strings, box, y, z, air, nb)
  for _, s in ipairs(spans) do
    local j = s[3]
    if not j then
      out.run(air, s[2] - s[1])
    else
      local g = regions[j]
      local gx = s[1] - (g.x0 - box.x0)
      local row = (box.y0 + y - g.y0) * g.sz + (box.z0 + z - g.z0)
      local at = (row * g.sx + gx) * nb -- bytes of g's string before this span
      out.piece(sub(strings[j], at + 1, at + (s[2] - s[1]) * nb))
    end
  end
end

--- The cell string of the box `{x0, y0, z0, w, h, l}` (Sponge order) joined from
-- `regions` (each `{x0, y0, z0, sx, sy, sz}`, in name order) and their cell strings
-- `strings` (`nb` bytes per cell, x, then z, then y), air (index `air`) elsewhere.
function join.join(regions, strings, box, air, nb)
  local out = cells.packer(nb)
  local ys = boundaries(regions, "y0", "sy", box.y0, box.h)
  local zs = boundaries(regions, "z0", "sz", box.z0, box.l)
  local all = {}
  for j = 1, #regions do all[j] = j end
  local by_set = {} -- layouts by the set of regions active: many band cells share one
  for yi = 1, #ys - 1 do
    local ya, yb = ys[yi], ys[yi + 1]
    local in_y = covering(all, regions, "y0", "sy", box.y0, ya, yb)
    if #in_y == 0 then
      out.run(air, box.w * box.l * (yb - ya))
    else
      local layouts = {} -- per Z band, the first time a row needs it
      for y = ya, yb - 1 do
        for zi = 1, #zs - 1 do
          local za, zb = zs[zi], zs[zi + 1]
          local spans = layouts[zi]
          if spans == nil then
            local active = covering(in_y, regions, "z0", "sz", box.z0, za, zb)
            local key = concat(active, ",")
            spans = by_set[key]
            if spans == nil then
              spans = #active > 0 and layout(active, regions, box.x0, box.w) or false
              by_set[key] = spans
            end
            layouts[zi] = spans
          end
          if not spans then
            out.run(air, box.w * (zb - za))
          else
            for z = za, zb - 1 do write_row(out, spans, regions, strings, box, y, z, air, nb) end
          end
        end
      end
    end
  end
  return out.result()
end

return join
