--- What the specs need that differs between Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT (the
-- suite runs under each: `make test-all`). Every spec file parses under Lua 5.1: no
-- bitwise operator, no `//`; these helpers give the same results everywhere.
--
-- * 32-bit bit operations (`band`, `bor`, `bxor`, `shl`, `shr`), on non-negative
--   integers below 2^32: native where Lua has them (5.3+: compiled from a string, as
--   5.1 cannot parse the operators), `bit32` on 5.2, pure arithmetic elsewhere
--   (LuaJIT's `bit` is signed).
-- * `mul32(a, b)`: a * b mod 2^32, exact on doubles. `idiv(a, b)`: a // b (floor
--   division; 5.3+: the operator, so integers stay integers).
-- * `band_op`: `function(a, b) return a & b end` where Lua has the operator (5.3+:
--   Collider's __band), else nil.
-- * `pack`, `unpack`: `string.pack` / `string.unpack` where Lua has them, else our own
--   for the formats the specs use: `<`, `>` or none (little-endian), then `i1 i2 i4
--   i8 I1 I2 I3 I4 f d s2` (an `i8` of a double is exact below 2^53).
-- * `mtype`: `math.type`, or "integer" for an integral number where Lua has no
--   integer subtype.
-- * `INTEGERS`: whether Lua has 64-bit integers; `MAXINT`, `MININT`.
-- * `finalizer(f)`: an object whose finalizer calls f (5.1 and LuaJIT call `__gc` on
--   userdata only: `newproxy`).
-- * `gc_incremental(pause, stepmul)`: `collectgarbage("incremental", ...)` of 5.4,
--   `setpause` and `setstepmul` before; `gc_isrunning()`.
-- * `unpack_table`: `table.unpack` or `unpack`; `pack_table`: `table.pack`.
-- Source: our own.
local C = {}

local floor = math.floor

C.INTEGERS = math.type ~= nil
C.MAXINT = math.maxinteger or 2 ^ 53
C.MININT = math.mininteger or -2 ^ 53
C.unpack_table = table.unpack or unpack -- luacheck: ignore 143
C.pack_table = table.pack or function(...) return { n = select("#", ...), ... } end
C.JIT = type(jit) == "table" -- luacheck: ignore 113

if math.type then
  C.mtype = math.type
else
  C.mtype = function(v)
    if type(v) ~= "number" then return nil end
    return v == floor(v) and v > -math.huge and v < math.huge and "integer" or "float"
  end
end

-- ------------------------------------------------------------------ bit ops

local load_native = _VERSION >= "Lua 5.3" and (loadstring or load) -- luacheck: ignore 113
if load_native then
  local ops = load_native([[return
    function(a, b) return a & b end, function(a, b) return a | b end,
    function(a, b) return a ~ b end,
    function(a, n) return (a << n) & 0xFFFFFFFF end, function(a, n) return a >> n end]])
  C.band, C.bor, C.bxor, C.shl, C.shr = ops()
  C.band_op = C.band
  C.idiv = load_native("return function(a, b) return a // b end")()
elseif bit32 then -- luacheck: ignore 113
  local b32 = bit32 -- luacheck: ignore 113
  C.band, C.bor, C.bxor, C.shl, C.shr = b32.band, b32.bor, b32.bxor, b32.lshift, b32.rshift
else
  -- by bytes, through a table of the 65536 xors (and and or follow from it)
  local XOR = {}
  for a = 0, 255 do
    for b = 0, 255 do
      local r, p, x, y = 0, 1, a, b
      while x > 0 or y > 0 do
        if x % 2 ~= y % 2 then r = r + p end
        x, y, p = floor(x / 2), floor(y / 2), p * 2
      end
      XOR[a * 256 + b] = r
    end
  end
  local function bxor(a, b)
    local r, p = 0, 1
    for _ = 1, 4 do
      r = r + XOR[(a % 256) * 256 + b % 256] * p
      a, b, p = floor(a / 256), floor(b / 256), p * 256
    end
    return r
  end
  local function bor(a, b) return (a + b + bxor(a, b)) / 2 end
  C.bxor, C.bor = bxor, bor
  C.band = function(a, b) return (a + b - bxor(a, b)) / 2 end
  C.shl = function(a, n) return (a * 2 ^ n) % 4294967296 end
  C.shr = function(a, n) return floor(a / 2 ^ n) end
end

C.idiv = C.idiv or function(a, b) return floor(a / b) end

--- One step of the 32-bit xorshift (13, 17, 5) the specs draw from: native where Lua
-- has the operators (as fast as before), else through the functions above.
if load_native then
  C.xorshift32 = load_native([[return function(s)
    s = s ~ ((s << 13) & 0xFFFFFFFF)
    s = s ~ (s >> 17)
    return s ~ ((s << 5) & 0xFFFFFFFF)
  end]])()
else
  local bxor, shl, shr = C.bxor, C.shl, C.shr
  C.xorshift32 = function(s)
    s = bxor(s, shl(s, 13))
    s = bxor(s, shr(s, 17))
    return bxor(s, shl(s, 5))
  end
end

--- a * b mod 2^32 for integers in [0, 2^32), exact on doubles (in 16-bit halves).
function C.mul32(a, b)
  local bl, bh = b % 65536, floor(b / 65536)
  return (a * bl + ((a * bh) % 65536) * 65536) % 4294967296
end

-- ------------------------------------------------------------ pack, unpack

local byte, char = string.byte, string.char

-- The bytes of a binary64 (big-endian), exact: sign, exponent, 52-bit mantissa.
local function double_bytes(x)
  local sign = (x < 0 or (x == 0 and 1 / x < 0)) and 128 or 0
  if x < 0 then x = -x end
  local e, m
  if x ~= x then e, m = 2047, 2 ^ 51
  elseif x == math.huge then e, m = 2047, 0
  elseif x == 0 then e, m = 0, 0
  else
    e = floor(math.log(x) / math.log(2))
    while 2 ^ e > x do e = e - 1 end
    while 2 ^ (e + 1) <= x do e = e + 1 end
    if e < -1022 then e, m = 0, x / 2 ^ -1074
    else m = (x / 2 ^ e - 1) * 2 ^ 52; e = e + 1023 end
  end
  local out = { sign + floor(e / 16), (e % 16) * 16 + floor(m / 2 ^ 48) % 16 }
  for k = 5, 0, -1 do out[#out + 1] = floor(m / 256 ^ k) % 256 end
  return out
end

local function float_bytes(x)
  local sign = (x < 0 or (x == 0 and 1 / x < 0)) and 128 or 0
  if x < 0 then x = -x end
  local e, m
  if x ~= x then e, m = 255, 2 ^ 22
  elseif x >= 2 ^ 128 then e, m = 255, 0
  elseif x == 0 then e, m = 0, 0
  else
    e = floor(math.log(x) / math.log(2))
    while 2 ^ e > x do e = e - 1 end
    while 2 ^ (e + 1) <= x do e = e + 1 end
    if e < -126 then e, m = 0, x / 2 ^ -149
    else m = (x / 2 ^ e - 1) * 2 ^ 23; e = e + 127 end
    m = floor(m + 0.5) -- the specs pack floats that binary32 holds
  end
  return { sign + floor(e / 2), (e % 2) * 128 + floor(m / 65536) % 128, floor(m / 256) % 256, m % 256 }
end

local function int_bytes(v, n)
  if n == 8 then -- halves: 2^64 + v is no double for a small negative v
    local hi = floor(v / 4294967296)
    local a, b = int_bytes(hi % 4294967296, 4), int_bytes(v - hi * 4294967296, 4)
    for k = 1, 4 do a[4 + k] = b[k] end
    return a
  end
  if v < 0 then v = v + 256 ^ n end
  local out = {}
  for k = n - 1, 0, -1 do out[#out + 1] = floor(v / 256 ^ k) % 256 end
  return out
end

local function parse(fmt)
  local items, big, pos = {}, false, 1
  while pos <= #fmt do
    local c = fmt:sub(pos, pos)
    if c == ">" then big = true; pos = pos + 1
    elseif c == "<" or c == "=" then big = false; pos = pos + 1
    else
      local code = fmt:match("^[iIs]%d", pos) or fmt:match("^[fdb]", pos)
      assert(code, "helpers.compat: unsupported format " .. fmt)
      items[#items + 1] = { code = code, big = big }
      pos = pos + #code
    end
  end
  return items
end

local function own_pack(fmt, ...)
  local args, out = { ... }, {}
  for i, it in ipairs(parse(fmt)) do
    local v, bytes = args[i], nil
    local kind, n = it.code:sub(1, 1), tonumber(it.code:sub(2))
    if kind == "s" then
      bytes = int_bytes(#v, n)
      if not it.big then
        local r = {}
        for k = #bytes, 1, -1 do r[#r + 1] = bytes[k] end
        bytes = r
      end
      out[#out + 1] = char(C.unpack_table(bytes)) .. v
    else
      if kind == "d" then bytes = double_bytes(v)
      elseif kind == "f" then bytes = float_bytes(v)
      elseif kind == "b" then bytes = int_bytes(v, 1)
      else bytes = int_bytes(v, n) end
      if not it.big then
        local r = {}
        for k = #bytes, 1, -1 do r[#r + 1] = bytes[k] end
        bytes = r
      end
      out[#out + 1] = char(C.unpack_table(bytes))
    end
  end
  return table.concat(out)
end

local function own_unpack(fmt, s, pos)
  pos = pos or 1
  local out = {}
  for _, it in ipairs(parse(fmt)) do
    local kind, n = it.code:sub(1, 1), tonumber(it.code:sub(2))
    if kind == "f" then n = 4 elseif kind == "d" then n = 8 elseif kind == "b" then n = 1 end
    local bytes = { byte(s, pos, pos + n - 1) }
    assert(#bytes == n, "data string too short")
    if not it.big then
      local r = {}
      for k = n, 1, -1 do r[#r + 1] = bytes[k] end
      bytes = r
    end
    local u = 0
    for k = 1, n do u = u * 256 + bytes[k] end
    if kind == "i" or kind == "b" then
      if bytes[1] >= 128 then u = u - 256 ^ n end
      out[#out + 1] = u
    elseif kind == "I" then out[#out + 1] = u
    elseif kind == "f" or kind == "d" then
      local be = {}
      for k = 1, n do be[k] = char(bytes[k]) end
      local compat = require "blockphys.compat"
      out[#out + 1] = compat.bytes.unpack(kind == "f" and ">f" or ">d", table.concat(be))
    else -- s
      out[#out + 1] = s:sub(pos + n, pos + n + u - 1)
      pos = pos + u
    end
    pos = pos + n
  end
  out[#out + 1] = pos
  return C.unpack_table(out)
end

--- string.format("%a", x) (C99's hexadecimal float, as glibc writes it): Lua 5.1's
-- format has no %a, so there from the bytes of the double.
local function own_hexfloat(x)
  local b = { byte(own_pack(">d", x), 1, 8) }
  local sign = b[1] >= 128 and "-" or ""
  local e = (b[1] % 128) * 16 + floor(b[2] / 16)
  local digits = string.format("%x", b[2] % 16)
  for k = 3, 8 do digits = digits .. string.format("%02x", b[k]) end
  local zero = digits:match("^0*$") ~= nil
  digits = digits:gsub("0+$", "")
  if e == 2047 then return zero and sign .. "inf" or sign .. "nan" end
  local frac = digits ~= "" and "." .. digits or ""
  if e == 0 then
    if zero then return sign .. "0x0p+0" end
    return sign .. "0x0" .. frac .. "p-1022"
  end
  e = e - 1023
  return sign .. "0x1" .. frac .. "p" .. (e < 0 and "-" or "+") .. math.abs(e)
end
C.hexfloat = pcall(string.format, "%a", 1) and function(x) return string.format("%a", x) end
  or own_hexfloat
C._own_hexfloat = own_hexfloat

C.pack = string.pack or own_pack
C.unpack = string.unpack or own_unpack
C._own = { pack = own_pack, unpack = own_unpack }

--- x rounded to binary32 (ties to even), as a double: the game's float constants.
C.f32 = require("blockphys.compat").float32

--- pairs(t), through its __pairs metamethod on every Lua: Lua 5.1 and LuaJIT ignore
-- __pairs (a RulesView, bp.limits), so there it is called here.
C.has_pairs_mm = (function()
  local ok = false
  for _ in pairs(setmetatable({}, { __pairs = function() ok = true; return next, {}, nil end })) do end
  return ok
end)()
function C.pairs(t)
  if not C.has_pairs_mm then
    local mt = debug.getmetatable(t)
    if mt and mt.__pairs then return mt.__pairs(t) end
  end
  return pairs(t)
end

--- The name Lua gives a metamethod (event "add") in an argument error: the event
-- (Lua 5.4.4; 5.2, 5.3 and LuaJIT as the binding words it); "?" under Lua 5.1, which
-- cannot name a function a metamethod call runs.
function C.mm_name(event)
  if _VERSION == "Lua 5.1" and not C.JIT then return "?" end
  return event
end

-- ----------------------------------------------------------------- chunks

--- load(src, name, mode, env) of Lua 5.2+ for a string (5.1 and LuaJIT: loadstring and
-- setfenv).
function C.load(src, name, mode, env)
  if _VERSION ~= "Lua 5.1" then return load(src, name, mode, env) end
  local f, err = loadstring(src, name) -- luacheck: ignore 113
  if f and env then setfenv(f, env) end -- luacheck: ignore 113
  return f, err
end

--- Text printed by Lua 5.3+ as the text where numbers have no integer subtype: an
-- integral float prints "64.0" there and "64" in Lua 5.1, 5.2 and LuaJIT (the same
-- number), so where Lua has no integers a number's ".0" is dropped.
function C.printed(text)
  if C.INTEGERS then return text end
  return (text:gsub("(%d)%.0%f[^%w.]", "%1"))
end

-- --------------------------------------------------------------- processes

--- The interpreter running this suite (`lua5.1 /usr/bin/busted ...`: "lua5.1"), for
-- child processes.
C.LUA = (function()
  local i = -1
  while arg and arg[i - 1] do i = i - 1 end
  return arg and arg[i] or "lua5.4"
end)()

--- io.popen(cmd) read to its end, then its exit as Lua 5.2+'s close gives it: out,
-- "exit" or "signal", code (Lua 5.1 and LuaJIT close with true alone: there the shell
-- appends the status).
function C.run(cmd)
  if _VERSION ~= "Lua 5.1" then
    local p = assert(io.popen(cmd, "r"))
    local out = p:read("*a")
    local _, how, code = p:close()
    return out, how, code
  end
  local p = assert(io.popen("{ " .. cmd .. "\n}; printf '\\n%d' $?", "r"))
  local out = p:read("*a")
  p:close()
  local body, status = out:match("^(.*)\n(%d+)$")
  status = tonumber(status)
  if status > 128 then return body, "signal", status - 128 end
  return body, "exit", status
end

-- ---------------------------------------------------------- the collector

--- An object (keep it or drop it) whose finalizer calls f.
function C.finalizer(f)
  if newproxy then -- luacheck: ignore 113 (Lua 5.1, LuaJIT)
    local p = newproxy(true) -- luacheck: ignore 113
    getmetatable(p).__gc = f
    return p
  end
  return setmetatable({}, { __gc = f })
end

--- collectgarbage("incremental", pause, stepmul) of Lua 5.4 (5.1 to 5.3: the
-- same two settings).
function C.gc_incremental(pause, stepmul)
  if _VERSION == "Lua 5.4" then
    collectgarbage("incremental", pause, stepmul)
  else
    collectgarbage("setpause", pause)
    collectgarbage("setstepmul", stepmul)
  end
end

--- The collector's default settings of this Lua (5.4: incremental, pause 200, step
-- multiplier 100; before: pause 200, step multiplier 200).
function C.gc_defaults()
  if _VERSION == "Lua 5.4" then C.gc_incremental(200, 100) else C.gc_incremental(200, 200) end
end

--- collectgarbage("isrunning") (Lua 5.1 cannot tell: true, unless C.gc_stop stopped it).
local stopped = false
function C.gc_isrunning()
  if _VERSION == "Lua 5.1" then return not stopped end
  return collectgarbage("isrunning")
end
function C.gc_stop() stopped = true; collectgarbage("stop") end
function C.gc_restart() stopped = false; collectgarbage("restart") end

return C
