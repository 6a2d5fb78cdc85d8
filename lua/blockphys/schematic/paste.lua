--- Pasting a loaded schematic into a world: the body of `schematic.paste` and
-- `World:paste` (`blockphys.schematic` re-exports both functions).
--
-- Every argument and every block definition is checked before the world is
-- touched, so a raised error leaves the world unchanged (running out of memory, a
-- debug hook's error or a finalizer destroying the world part-way excepted).
-- Source: our own.
--
-- @module blockphys.schematic.paste

local minecraft = require "blockphys.minecraft"
local cells = require "blockphys.schematic.cells"

local pasting = {}

local format = string.format
local unpack = string.unpack
local byte, char, find = string.byte, string.char, string.find
local mtype = math.type

-- Cell integer formats by `cell_bytes` (see the schematic table in
-- `blockphys.schematic`).
local CELL_FORMATS = cells.FORMATS

local INT32_MIN, INT32_MAX = -2 ^ 31, 2 ^ 31 - 1
local MAX_EXTENT = 1 << 32 -- cells along one axis of the int32 range
local CHECK_RUN = 4096 -- cells per string.byte call in the index check

-- Argument errors are raised at the line that called `paste` or `World:paste`: the
-- first stack frame outside this file (the checks sit at different depths below it,
-- and `World:paste` tail-calls `_paste_method`, so its own frame is gone). Raising
-- directly, not through a pcall at the entry points, keeps the tracebacks of errors
-- from a user's `block_def`; only the last phase, where the world's own methods run,
-- is under a pcall (see world_error).
local THIS = debug.getinfo(1, "S")

-- Raise msg at the first stack level outside this file.
local function raise_outside(msg)
  local level = 2
  while true do
    local info = debug.getinfo(level, "S")
    if not info or info.source ~= THIS.source then break end
    level = level + 1
  end
  error(msg, level)
end

local function argerror(n, msg)
  raise_outside(format("bad argument #%d to 'paste' (%s)", n, msg))
end

-- An error the world raised while paste used it. The world's own errors ("set_block:
-- world is locked: ...", which becomes "paste: world is locked: ...") name the line
-- of this file that called the world: raise them again at the caller's line, as
-- argument errors are. A world that a user's block_def or a
-- finalizer destroyed makes the method paste called on it report a bad self
-- ("calling 'set_block' on bad self (world has been destroyed)"): that becomes
-- paste's own error about its world, argument 1 (`base` 0) or self (`World:paste`,
-- base -1). Others pass unchanged.
local function world_error(err, base)
  if type(err) ~= "string" then error(err, 0) end
  local here = THIS.short_src .. ":"
  local msg = err:sub(1, #here) == here and err:gsub("^[^:]*:%d+: ", "", 1) or err
  -- the lock names the world's method that met it; the user called paste
  local n
  msg, n = msg:gsub("^[%w_]+: world is locked: ", "paste: world is locked: ", 1)
  local why = msg:match("^calling '[^']*' on bad self %((.*)%)$")
  if why and base < 0 then
    raise_outside(format("calling 'paste' on bad self (%s)", why))
  elseif why then
    argerror(1, why)
  elseif msg ~= err or n > 0 then
    raise_outside(msg)
  end
  error(err, 0)
end

-- world:method(...) (one result), with the world's errors as world_error has them.
-- Called through pcall, a blockphys World's method names no function and counts the
-- world as argument 1: "bad argument #1 to '?' (world has been destroyed)" is a bad
-- self. Other errors (a stand-in world's own) pass as they are.
local function world_call(world, method, base, ...)
  local ok, r = pcall(world[method], world, ...)
  if not ok then
    local dead = type(r) == "string"
      and r:match("^bad argument #1 to '%?' %((world has been destroyed)%)$")
    world_error(dead and format("calling '%s' on bad self (%s)", method, dead) or r, base)
  end
  return r
end

local function method_of(obj, name)
  local ok, f = pcall(function() return obj[name] end)
  return ok and type(f) == "function"
end

local function check_world(world)
  local t = type(world)
  if t ~= "table" and t ~= "userdata" then argerror(1, "world expected, got " .. t) end
  for _, m in ipairs({ "define_block", "block_id", "set_block" }) do
    if not method_of(world, m) then argerror(1, "world has no method '" .. m .. "'") end
  end
end

-- `n` below is the argument number when the world is argument 1; World:paste
-- passes base = -1 so that its messages count from the schematic.
-- Returns a checked copy of the fields paste uses, each read once: the shape table's
-- block_def runs later and may change the schematic table (a hand-built one, or one
-- with metamethods), and what is placed must be what was checked.
local function check_schematic(schem, base)
  local n = 2 + base
  if type(schem) ~= "table" then argerror(n, "schematic expected, got " .. type(schem)) end
  local sc = {}
  for _, k in ipairs({ "width", "height", "length" }) do
    local v = schem[k]
    -- at most 2^32 (no int32 corner reaches past that): the sums and products below
    -- then stay exact
    if mtype(v) ~= "integer" or v < 0 or v > MAX_EXTENT then
      argerror(n, "schematic has no valid " .. k)
    end
    sc[k] = v
  end
  local nb, palette, blocks = schem.cell_bytes, schem.palette, schem.blocks
  if type(palette) ~= "table" or type(blocks) ~= "string" or not CELL_FORMATS[nb] then
    argerror(n, "schematic has no valid palette, blocks or cell_bytes")
  end
  -- In floats: integer products of such extents could wrap around to #blocks. A
  -- float product equal to #blocks (< 2^53) was exact at every stage.
  if #blocks ~= (sc.width + 0.0) * sc.height * sc.length * nb then
    argerror(n, "schematic blocks do not match its size")
  end
  -- Entries 1..#palette, holes included (ipairs would stop at the first hole, and
  -- indices are bounded by #palette below).
  -- #palette may come from __len: bound it by what 3-byte cells can index
  local npal = #palette
  if mtype(npal) ~= "integer" or npal < 0 or npal > 2 ^ 24 then
    argerror(n, "schematic palette length must be an integer in 0..16777216")
  end
  sc.palette = {}
  for i = 1, npal do
    local state = palette[i]
    if type(state) ~= "string" then
      argerror(n, format("palette entry %d is not a string", i))
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
        argerror(n, format("schematic cell %d: palette index %d out of range (palette has %d entries)",
          (pos - 1) // nb, v, npal))
      end
    end
  end
  sc.cell_bytes, sc.blocks = nb, blocks
  return sc
end

local function check_coord(n, v, extent)
  local i = type(v) == "number" and math.tointeger(v)
  if not i then
    argerror(n, mtype(v) == "float" and "number has no integer representation"
      or "number expected, got " .. type(v))
  end
  if i < INT32_MIN or i > INT32_MAX or (extent > 0 and i + extent - 1 > INT32_MAX) then
    argerror(n, "block coordinate out of the int32 range")
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
    local n = #out.boxes
    local count = math.tointeger(n)
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

local function check_def(state, def, n)
  if type(def) ~= "table" then
    argerror(n, format("block_def(%q) returned no definition with a name", state))
  end
  def = copy_def(def)
  if type(def.name) ~= "string" then
    argerror(n, format("block_def(%q) returned no definition with a name", state))
  end
  return def
end

-- One definition per palette entry (nil for air), plus the sorted names
-- of states the shape table guessed.
local function palette_defs(palette, shapes, n)
  local defs, guessed, seen = {}, {}, {}
  for i, state in ipairs(palette) do
    local name = minecraft.parse_state(state)
    if not (name and minecraft.is_air(name)) then
      local def, known = shapes.block_def(state)
      defs[i] = check_def(state, def, n)
      local bare = name and (name:find(":", 1, true) and name or "minecraft:" .. name) or state
      if known == false and not seen[bare] then
        seen[bare] = true
        guessed[#guessed + 1] = bare
      end
    end
  end
  table.sort(guessed)
  return defs, guessed
end

-- Block types the world defines at most (ids are 16-bit, air included).
local MAX_TYPES = 65536

-- Defines, in a scratch world, every type that `define_all` will define, so that
-- whatever `World:define_block` would reject (a bad box, slipperiness, liquid, an
-- unknown field, too many types) raises here, before the real world changes.
-- `define_block`'s own checks are the only ones: nothing is checked twice.
local function check_new_types(world, palette, defs, n, base)
  local scratch = require("blockphys").World()
  local new = 0
  for i = 1, #palette do
    local def = defs[i]
    if def and not world_call(world, "block_id", base, def.name)
        and not scratch:block_id(def.name) then
      local ok, err = pcall(scratch.define_block, scratch, def)
      if not ok then
        if err == "not enough memory" then error(err, 0) end -- not the definition's fault
        local msg = tostring(err):gsub("^define_block: ", "")
        argerror(n, format("block_def(%q): %s", palette[i], msg))
      end
      new = new + 1
    end
  end
  scratch:destroy()
  if method_of(world, "stats") then
    local stats = world_call(world, "stats", base)
    local have = type(stats) == "table" and rawget(stats, "block_types")
    if mtype(have) == "integer" and have + new > MAX_TYPES then
      argerror(n, format("%d new block types would exceed the world's %d", new, MAX_TYPES))
    end
  end
end

-- Block ids for the definitions, reusing types the world already has. After
-- `check_new_types` a definition can fail here only for lack of memory.
local function define_all(world, defs, npal)
  local ids = {}
  for i = 1, npal do
    local def = defs[i]
    if def then
      ids[i] = world:block_id(def.name) or world:define_block(def)
    end
  end
  return ids
end

-- A pattern that matches a run of one-byte cells whose palette entries place
-- nothing (air), anchored where the search starts; nil if there are none.
local function air_run_pattern(ids, npal)
  local set = {}
  for i = 0, math.min(npal, 256) - 1 do
    if not ids[i + 1] then
      local c = char(i)
      set[#set + 1] = c:match("%w") and c or "%" .. c -- escapes never make a class
    end
  end
  return #set > 0 and "^[" .. table.concat(set) .. "]+" or nil
end

-- place() for one-byte cells: string.find skips runs of air cells in C, so a
-- box that is mostly air costs its blocks, not its volume.
local function place_bytes(world, schem, ids, x, y, z)
  local blocks, w, l = schem.blocks, schem.width, schem.length
  local air = air_run_pattern(ids, #schem.palette)
  local plane, n, pos, placed = w * l, #blocks, 1, 0
  while pos <= n do
    if air then
      local _, e = find(blocks, air, pos)
      if e then pos = e + 1 end
    end
    if pos > n then break end
    local i = pos - 1
    world:set_block(x + i % w, y + i // plane, z + (i // w) % l, ids[byte(blocks, pos) + 1])
    placed = placed + 1
    pos = pos + 1
  end
  return placed
end

-- Set the schematic's non-air cells (ids: block id per palette entry) with the
-- minimum corner at (x, y, z). Returns the number of blocks set.
local function place(world, schem, ids, x, y, z)
  if schem.cell_bytes == 1 then return place_bytes(world, schem, ids, x, y, z) end
  local blocks, nb, w, l = schem.blocks, schem.cell_bytes, schem.width, schem.length
  local fmt, plane, placed = CELL_FORMATS[nb], w * l, 0
  -- By cell, not by (y, z, x): a box with a zero extent (no cells) then costs nothing
  for pos = 1, #blocks, nb do
    local id = ids[unpack(fmt, blocks, pos) + 1]
    if id then
      local i = (pos - 1) // nb
      world:set_block(x + i % w, y + i // plane, z + (i // w) % l, id)
      placed = placed + 1
    end
  end
  return placed
end

-- The body of paste; argument numbers in messages are shifted by `base`.
local function paste(world, schem, x, y, z, shapes, base)
  -- The world's lock first: inside a rules hook or filter every paste raises, also
  -- one with nothing to define or place, which would never meet it in define_block
  -- or set_block, and no block_def runs (a stand-in world has no lock).
  if method_of(world, "_check_unlocked") then
    local ok, err = pcall(function() world:_check_unlocked("paste") end)
    if not ok then world_error(err, base) end
  end
  schem = check_schematic(schem, base)
  local w, h, l = schem.width, schem.height, schem.length
  x = check_coord(3 + base, x, w)
  y = check_coord(4 + base, y, h)
  z = check_coord(5 + base, z, l)
  shapes = shapes == nil and minecraft or shapes
  if type(shapes) ~= "table" or type(shapes.block_def) ~= "function" then
    argerror(6 + base, "shape table with a block_def function expected")
  end
  local defs, guessed = palette_defs(schem.palette, shapes, 6 + base)
  check_new_types(world, schem.palette, defs, 6 + base, base)
  local ok, placed = pcall(function()
    return place(world, schem, define_all(world, defs, #schem.palette), x, y, z)
  end)
  if not ok then world_error(placed, base) end
  return { placed = placed, guessed = guessed }
end

--- Places a schematic in a world with its minimum corner at block (x, y, z).
--
-- The schematic's own `offset` is not applied. Air cells (air, cave_air,
-- void_air) are skipped, so they leave the world's blocks as they were. A cell
-- whose index has no palette entry (a table built or changed by hand) raises.
-- Each distinct palette state is turned into a block type with
-- `shapes.block_def(state)`; a type whose name the world already knows
-- (`world:block_id`) is reused as it is.
--
-- Every argument and every definition is checked before the world is
-- touched, so a raised error leaves the world unchanged: each new type is first
-- defined in a scratch World, so whatever `World:define_block` would reject
-- (a bad box or field, a name that is not a string) raises here, as does a
-- palette whose new types would pass the world's 65,536 types. Only an error
-- that does not come from the checks (out of memory, a debug hook's, a finalizer
-- destroying the world) can leave some types defined and some blocks placed.
-- Source: our own.
-- @param world a `blockphys` World (or anything with `define_block`,
--   `block_id` and `set_block` methods; its definitions are still checked by a
--   blockphys World's rules, and its `stats().block_types`, if any, by the type limit)
-- @tparam table schem a schematic from `load`
-- @tparam integer x block X of the minimum corner (int32, as is x + width - 1)
-- @tparam integer y block Y of the minimum corner (int32, as is y + height - 1)
-- @tparam integer z block Z of the minimum corner (int32, as is z + length - 1)
-- @tparam[opt] table shapes module with `block_def(state) -> def, known`
--   (default `blockphys.minecraft`)
-- @treturn table `{placed = n, guessed = {names...}}`: blocks set, and the
--   sorted unique block names the shape table did not know (they became
--   full cubes)
-- @raise `bad argument #n to 'paste' (...)` for a bad world, schematic,
--   coordinate or shape definition (`block_def("<state>"): <define_block's
--   message>`), or too many new types; `bad argument #1 to 'paste' (world has
--   been destroyed)` (`calling 'paste' on bad self (...)` for `World:paste`) when
--   a `block_def` destroyed the world; the world's own errors ("paste: world is
--   locked ..." inside a step hook or filter, raised at the caller's line, and
--   "not enough memory" unchanged)
function pasting.paste(world, schem, x, y, z, shapes)
  check_world(world)
  return paste(world, schem, x, y, z, shapes, 0)
end

--- `schematic.paste` for `World:paste`: the same, with argument numbers counted
-- from the schematic (the world is `self`, which the caller has checked).
-- Its argument errors carry the position of its caller; `World:paste` calls it
-- in a tail call (`return schematic._paste_method(...)`), so that position is the
-- line of the user's `world:paste(...)`.
-- @local
function pasting._paste_method(world, schem, x, y, z, shapes)
  return paste(world, schem, x, y, z, shapes, -1)
end

return pasting
