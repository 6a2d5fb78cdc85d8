--- LuaJIT's fast path for the calls a game makes every tick: entity field reads and
-- writes (`e.x`, `e.vx = v`, `e.jumping = true`, ...), `e:set_input`, `e:position()`,
-- `world:set_inputs` and `world:positions`. Loaded by `blockphys` under every
-- interpreter; it acts only under LuaJIT with its FFI (and not when the environment
-- sets BLOCKPHYS_NO_FFI).
--
-- LuaJIT calls C through its FFI far faster than through the classic API, and compiles
-- such calls into its traces. The module's C half (csrc/binding/lffi.c) has plain C
-- forms of these calls that call no Lua function and answer -1 wherever the classic
-- function would raise or run Lua code; here the Entity metatable's `__index` and
-- `__newindex`, `e:set_input`, `e:position`, `world:set_inputs` and `world:positions`
-- become Lua functions that take the C form when it answers, and otherwise call the
-- classic function: the same API, the same results and the same errors (an error of
-- the classic function called through pcall is raised again as the classic call would
-- have worded it: the function's name and argument number from this call, the
-- caller's position).
--
-- Source: our own.
--
-- @module blockphys.ffi
-- @local

local core = require "blockphys.core"

local M = { active = false }

local have_ffi, ffi = pcall(require, "ffi")
local have_table_new, table_new = pcall(require, "table.new")
if not (have_ffi and type(jit) == "table" and type(core._ffi) == "table" -- luacheck: ignore 113
    and os.getenv("BLOCKPHYS_NO_FFI") == nil) then
  return M
end

local API = "struct blockphys_ffi_api"
if not pcall(ffi.typeof, API) then
  ffi.cdef [[
    struct blockphys_ffi_api {
      int version;
      int size;
      int (*field_get)(const void *entity, int code, double *out);
      int (*field_set)(const void *entity, int code, double v, int boolean);
      int (*set_input)(const void *entity, double forward, double strafe, double yaw,
                       int jumping, int sneaking);
      int (*positions)(const void *world, double *out, int cap);
      int (*position)(const void *entity, double *out);
      int (*entity_count)(const void *world);
      int (*set_inputs)(const void *world, const double *in, int n);
    };
  ]]
end
local api = ffi.cast("const " .. API .. " *", core._ffi.api)
if api.version ~= 2 or api.size ~= ffi.sizeof(API) then return M end -- another module build

local registry = debug.getregistry()
local entity_mt, world_mt = registry["blockphys.Entity"], registry["blockphys.World"]
local FIELDS = core._ffi.fields
local classic_index, classic_newindex = entity_mt.__index, entity_mt.__newindex
local classic_set_input = FIELDS.set_input
local classic_positions = core.World_methods.positions
local classic_set_inputs = core.World_methods.set_inputs
local classic_position = FIELDS.position

-- Which userdata the C forms may be given is told by its real metatable, never by
-- getmetatable: a script can make a userdata whose getmetatable answers
-- "blockphys.Entity" (newproxy(true) and a __metatable field, in Lua 5.1 and LuaJIT),
-- and the C forms would read its empty block as an entity.
local getmetatable = debug.getmetatable
local type, rawget, rawset = type, rawget, rawset
local getinfo, error, pcall, format = debug.getinfo, error, pcall, string.format
local field_get, field_set = api.field_get, api.field_set
local set_input_c, positions_c = api.set_input, api.positions
local position_c, entity_count_c, set_inputs_c = api.position, api.entity_count, api.set_inputs
-- Shared by every call, but only between a C call that fills them and the reads right
-- after it, which allocate nothing and run no Lua: no finalizer can come between.
local out1, out3 = ffi.new("double[1]"), ffi.new("double[3]")
local new_table = have_table_new and table_new or function() return {} end

-- Raise err, an error of a classic function called through pcall, as that function
-- would have raised it called as the fast path's caller called the fast path: an
-- argument error names the function and counts the arguments by this call (luaL_argerror:
-- a method call does not count self), and the message gets the caller's position.
local function fail(err)
  if type(err) == "string" then
    local n, rest = err:match("^bad argument #(%d+) to '%?' (%(.*%))$")
    if n then
      local info = getinfo(2, "n") -- 1 fail, 2 the fast path (named as its caller named it)
      local name, namewhat = info and info.name, info and info.namewhat or ""
      n = tonumber(n)
      if name and namewhat == "metamethod" and name:sub(1, 2) == "__" then name = name:sub(3) end
      if namewhat == "method" then
        n = n - 1
        if n == 0 then err = format("calling '%s' on bad self %s", name, rest) end
      end
      if n > 0 then err = format("bad argument #%d to '%s' %s", n, name or "?", rest) end
    end
  end
  error(err, 3)
end

-- Entity __index: a field read through field_get; methods from the field table;
-- anything else (a dead entity, rules, filter, world, group, mask, unknown keys) as
-- the classic __index does it (a tail call: its errors keep the caller's position).
local function index(e, k)
  local code = FIELDS[k] -- FIELDS is the first upvalue, as the classic __index's
  if getmetatable(e) == entity_mt then
    if type(code) == "number" then
      local kind = field_get(e, code, out1)
      if kind == 0 then return out1[0] end
      if kind == 1 then return out1[0] ~= 0 end
    elseif code ~= nil then
      return code
    end
  end
  return classic_index(e, k)
end

-- Entity __newindex: a number or boolean written through field_set, else the classic
-- __newindex.
local function newindex(e, k, v)
  local code = FIELDS[k]
  if getmetatable(e) == entity_mt then
    if type(code) == "number" then
      local tv = type(v)
      if tv == "number" then
        if field_set(e, code, v, 0) == 0 then return end
      elseif tv == "boolean" then
        if field_set(e, code, v and 1 or 0, 1) == 0 then return end
      end
    elseif type(k) ~= "string" and type(k) ~= "number" then
      -- the classic raises an argument error naming itself ("bad argument #2 to
      -- 'newindex'"): through pcall, so that this call names it
      local ok, err = pcall(classic_newindex, e, k, v)
      if not ok then fail(err) end
      return
    end
  end
  return classic_newindex(e, k, v)
end

--- e:set_input(forward, strafe, yaw, jumping, sneaking) through set_input_c when every
-- argument has its type (numbers; booleans or nil), else the classic method. The types
-- are asked of type(), never by comparing with nil: a NULL pointer (cdata) equals nil
-- under LuaJIT, and the classic method refuses it.
local function set_input(e, ...)
  local forward, strafe, yaw, jumping, sneaking = ...
  local tj, ts = type(jumping), type(sneaking)
  if getmetatable(e) == entity_mt and type(forward) == "number" and type(strafe) == "number"
      and type(yaw) == "number" and (tj == "nil" or tj == "boolean")
      and (ts == "nil" or ts == "boolean")
      and set_input_c(e, forward, strafe, yaw, jumping and 1 or 0, sneaking and 1 or 0) == 0 then
    return
  end
  local ok, err = pcall(classic_set_input, e, ...)
  if not ok then fail(err) end
end

-- The bulk calls' buffer: a spare that a call takes for its whole length (the slot is
-- empty meanwhile) and gives back at its end. Filling a table can allocate, and so run
-- a finalizer that calls world:positions or world:set_inputs again (of this world or
-- another): that call finds no spare and makes its own, so it never writes into the
-- buffer of the call it interrupted. An error in between only loses the spare.
local spare, spare_cap = nil, 0
local max = math.max

local function take(need)
  local b, c = spare, spare_cap
  spare, spare_cap = nil, 0
  if c < need then
    c = max(need, 192)
    b = ffi.new("double[?]", c)
  end
  return b, c
end

local function give(b, c)
  if c > spare_cap then spare, spare_cap = b, c end
end

--- world:positions([out]) through positions_c, else the classic method (out's type by
-- type(), as set_input's arguments: a NULL pointer equals nil).
local function positions(w, ...)
  local out = ...
  local to = type(out)
  if getmetatable(w) == world_mt and (to == "nil" or to == "table") then
    local b, c = take(0)
    local n = positions_c(w, b, c)
    while n >= 0 and 3 * n > c do -- ffi.new may run a finalizer: the count is asked again
      b, c = take(3 * n)
      n = positions_c(w, b, c)
    end
    if n >= 0 then
      local m = 3 * n
      out = out or new_table(m, 0)
      for i = 1, m do rawset(out, i, b[i - 1]) end
      local j = m + 1
      while rawget(out, j) ~= nil do
        rawset(out, j, nil)
        j = j + 1
      end
      give(b, c)
      return out
    end
    give(b, c)
  end
  local ok, r = pcall(classic_positions, w, ...)
  if not ok then fail(r) end
  return r
end

--- world:set_inputs(inputs) through set_inputs_c when every value has its type (numbers;
-- booleans or nil), else the classic method, which raises the message. The values are
-- read raw, as the classic reads them; the ranges are checked in C, all before any
-- input changes.
local function set_inputs(w, ...)
  local t = ...
  if getmetatable(w) == world_mt and type(t) == "table" then
    local n = entity_count_c(w)
    if n >= 0 then
      local b, c = take(5 * n)
      n = entity_count_c(w) -- take may have run a finalizer (nothing below allocates)
      local ok = n >= 0 and 5 * n <= c
      if ok then
        for k = 1, 5 * n, 5 do
          local f, s, y, j, q = rawget(t, k), rawget(t, k + 1), rawget(t, k + 2),
            rawget(t, k + 3), rawget(t, k + 4)
          local tj, tq = type(j), type(q)
          if type(f) ~= "number" or type(s) ~= "number" or type(y) ~= "number"
              or not (tj == "nil" or tj == "boolean") or not (tq == "nil" or tq == "boolean") then
            ok = false
            break
          end
          b[k - 1], b[k], b[k + 1], b[k + 2], b[k + 3] = f, s, y, j and 1 or 0, q and 1 or 0
        end
        ok = ok and set_inputs_c(w, b, n) == 0
      end
      give(b, c)
      if ok then return end
    end
  end
  local ok, err = pcall(classic_set_inputs, w, ...)
  if not ok then fail(err) end
end

--- e:position() through position_c, else the classic method.
local function position(e, ...)
  if getmetatable(e) == entity_mt and position_c(e, out3) == 0 then
    return out3[0], out3[1], out3[2]
  end
  local ok, x, y, z = pcall(classic_position, e, ...)
  if not ok then fail(x) end
  return x, y, z
end

entity_mt.__index, entity_mt.__newindex = index, newindex
rawset(FIELDS, "set_input", set_input)
rawset(FIELDS, "position", position)
rawset(core.World_methods, "positions", positions)
rawset(core.World_methods, "set_inputs", set_inputs)
M.active = true

return M
