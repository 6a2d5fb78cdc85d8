--- The attack suite's hostile files: gzip bombs, deep nesting, value and skipped-entry
-- floods, joined palettes, huge dimensions, bad packed arrays and costly shapes in
-- every format, every truncation of the lobby and seeded mutants of it. Each file is
-- built here, in code; `load` must return a schematic or nil and a "schematic: "
-- message, never raise, within the case's time and memory; a schematic that loads is
-- pasted into a new World, which must then hold exactly its non-air cells, or be
-- unchanged if paste raised.
--
-- Source: our own.

local bp = require "blockphys"
local B = require "nbt_build"
local H = require "harness"

local schematic, nbt = bp.schematic, bp.nbt
local check, is_message = H.check, H.is_message
local format, rep, char, pack = string.format, string.rep, string.char, string.pack
local TAG = B.TAG

local files = {}

local MB = 1024 * 1024

-- Loads `doc`: the schematic, or nil and the message (checked: nothing raised, the
-- message is a "schematic: " string matching `expect` if given; a schematic has the
-- fields' invariants).
local function load_checked(doc, opts, expect)
  local ok, s, err = pcall(schematic.load, doc, opts)
  check(ok, "load raised: %s", tostring(s))
  if s == nil then
    check(is_message(err) and err:sub(1, 11) == "schematic: ", "load gave nil and %s", tostring(err))
    check(not expect or expect == true or err:find(expect), "message %q, expected %q", err,
      tostring(expect))
    check(expect ~= true, "did not load: %s", err)
    return nil, err
  end
  check(not expect or expect == true, "loaded, expected %q", tostring(expect))
  check(type(s) == "table", "load gave a %s", type(s))
  check(#s.blocks == s.width * s.height * s.length * s.cell_bytes, "blocks do not match the size")
  check(#s.palette <= 65536 and s.cell_bytes <= 2, "%d states in %d-byte cells", #s.palette, s.cell_bytes)
  return s
end

local function same_stats(a, b)
  for k, v in pairs(a) do
    if k ~= "bytes" and b[k] ~= v then return false end
  end
  return true
end

-- Pastes s into a new World: it holds exactly the non-air cells, or is unchanged.
local function paste_checked(s)
  local w = bp.World()
  local before = w:stats()
  local ok, r = pcall(w.paste, w, s, 0, 0, 0)
  if ok then
    check(r.placed == s.count_nonair, "placed %d of %d non-air cells", r.placed, s.count_nonair)
    check(w:stats().blocks == r.placed, "the world holds %d blocks, %d placed", w:stats().blocks, r.placed)
  else
    check(is_message(r), "paste raised a %s", type(r))
    check(same_stats(before, w:stats()), "paste raised (%s) and changed the world", r)
  end
  w:destroy()
  return ok, r
end

-- A case: load (and paste what loads) within the budget.
-- (Short-mode budgets are 3 to 5 times what the cases take on an idle machine: CI
-- shares its cores.)
local function file_case(name, seconds, kb, make, opts, expect)
  return { name = name, seconds = seconds, kb = kb, setup = make, run = function(doc)
    local s = load_checked(doc, opts, expect)
    if s then paste_checked(s) end
    return format("(%d document bytes%s)", #doc, s and format(", %d cells", s.width * s.height * s.length) or "")
  end }
end

-- Runs f with nbt.MAX_VALUES set to n.
local function with_values(n, f)
  local saved = nbt.MAX_VALUES
  nbt.MAX_VALUES = n
  local ok, err = pcall(f)
  nbt.MAX_VALUES = saved
  if not ok then error(err, 0) end
end

-- Pieces of n zero bytes, 1 MB at a time (a bomb streamed into gzip).
local function zero_pieces(n)
  local piece = rep("\0", MB)
  return function()
    if n <= 0 then return nil end
    local k = n < MB and n or MB
    n = n - k
    return k == MB and piece or rep("\0", k)
  end
end

-- A document whose root holds a list named `name` of n empty compounds, as gzip
-- streamed (the list's body is n zero bytes: each an empty compound).
local function compound_flood_gz(name, n)
  local head = pack(">i1s2", TAG.compound, "") .. pack(">i1s2", TAG.list, name) .. pack(">i1i4", TAG.compound, n)
  local tail = "\0"
  local pieces = zero_pieces(n)
  local done = false
  return B.gzip(head, function()
    local p = pieces()
    if p then return p end
    if not done then done = true; return tail end
    return nil
  end)
end

-- `nested(depth, id)`: a root holding `depth` lists (id 9) or compounds (id 10) nested.
local function nested(depth, id, name)
  local inner
  if id == TAG.list then
    inner = rep(pack(">i1i4", TAG.list, 1), depth - 1) .. pack(">i1i4", 0, 0)
  else
    inner = rep(pack(">i1s2", TAG.compound, "n"), depth - 1) .. rep("\0", depth)
  end
  return B.root("", B.tag(id, name or "deep", inner))
end

-- Palette entries "minecraft:<prefix><i>" for i = 1..n.
local function states(prefix, n)
  local t = {}
  for i = 1, n do t[i] = B.state_entry(format("minecraft:%s%d", prefix, i)) end
  return t
end

-- `k` one-cell regions, region i listing the palette `pals(i)` and using index v.
local function one_cell_regions(k, pals, v)
  local regions = {}
  for i = 1, k do
    local pal = pals(i)
    local bits = B.bits_for(#pal)
    check(v < 2 ^ bits, "index %d in %d bits", v, bits)
    regions[i] = B.region(format("r%02d", i), { 2 * i, 0, 0 }, { 1, 1, 1 }, pal, 1, pack(">i8", v))
  end
  return B.litematic(regions)
end

-- The raw NBT of the lobby (inflated once).
local lobby_raw, lobby_gz
local function lobby()
  if not lobby_raw then
    local f = assert(io.open("examples/data/limbo_spawn.schem", "rb"))
    lobby_gz = f:read("a")
    f:close()
    lobby_raw = assert(require("zlib").inflate()(lobby_gz))
  end
  return lobby_raw, lobby_gz
end

--- The cases of the files group for `mode` ("short" or "full").
function files.cases(mode)
  local full = mode == "full"
  local c = {}
  local function add(case) c[#c + 1] = case end

  -- Compression bombs: a document is decoded as it is inflated, so a bomb of zeros
  -- is refused at its first byte (no root tag), and one that is valid NBT as far as
  -- it goes (a byte array claiming 2^31 - 1 bytes, then zeros) as soon as the
  -- inflated size passes max_bytes.
  local bomb_n = full and 300 * MB or 40 * MB
  local bomb_opts = not full and { max_bytes = 16 * MB } or nil
  add(file_case("gzip bomb of zeros", full and 2 or 1, (full and 100 or 40) * 1024,
    function() return B.gzip("", zero_pieces(bomb_n)) end, bomb_opts, "document has no root tag"))
  local bomb_head = pack(">i1s2", TAG.compound, "") .. pack(">i1s2i4", TAG.byte_array, "BlockData", 2 ^ 31 - 1)
  add(file_case("gzip bomb", full and 10 or 3, (full and 900 or 80) * 1024,
    function() return B.gzip(bomb_head, zero_pieces(bomb_n)) end,
    bomb_opts, "decompressed data exceeds %d+ bytes"))
  add(file_case("raw NBT past max_bytes", 2, 24 * 1024,
    function() return "\10" .. rep("\0", 4 * MB) end, { max_bytes = MB }, "data exceeds 1048576 bytes"))
  add(file_case("corrupted gzip", 1, 4096,
    function() return "\31\139\8\0\0\0\0\0\0\3" .. rep("\255", 1000) end, nil, "corrupted gzip data"))
  add(file_case("truncated gzip", 1, 4096,
    function() return B.gzip(bomb_head .. rep("\0", 100000)):sub(1, 100) end, nil, "truncated gzip"))

  -- Deep nesting, read and skipped: refused past 512, with no C stack overflow.
  for _, id in ipairs{ TAG.list, TAG.compound } do
    local kind = id == TAG.list and "lists" or "compounds"
    add(file_case("600 nested " .. kind, 1, 8192, function() return nested(600, id) end, nil,
      "nesting deeper than 512"))
    add(file_case("600 nested " .. kind .. " under Entities", 1, 8192,
      function() return nested(600, id == TAG.list and TAG.list or TAG.compound, "Entities") end, nil,
      id == TAG.list and "nesting deeper than 512" or nil))
    add(file_case("100000 nested " .. kind, 2, 32 * 1024, function() return nested(100000, id) end, nil,
      "nesting deeper than 512"))
  end

  -- Value floods: empty compounds, one byte each, read and skipped. The read one is
  -- a list of lists, each within the budget, so that the budget stops the decode
  -- part-way (a single list past it is refused at its count).
  local budget = full and nbt.MAX_VALUES or 65536
  local per = full and 65536 or 4096
  local lists = budget / per + 1
  local function flood_setup(list_name)
    return function()
      local inner = pack(">i1i4", TAG.compound, per) .. rep("\0", per)
      return B.gzip(B.root("", B.list_raw(list_name, TAG.list, lists, rep(inner, lists))))
    end
  end
  local function flood_case(name, list_name, seconds, mb)
    add({ name = name, seconds = seconds, kb = mb * 1024, setup = flood_setup(list_name), run = function(gz)
      with_values(budget, function()
        load_checked(gz, nil, "more than %d+ values %(nbt.MAX_VALUES%)")
      end)
    end })
  end
  flood_case("flood of empty compounds, read", "l", full and 20 or 1, full and 1500 or 24)
  flood_case("flood of empty compounds, skipped (Entities)", "Entities", full and 10 or 1, full and 100 or 8)
  add({ name = "flood of skipped compound entries (Metadata)", seconds = full and 30 or 2,
    kb = (full and 100 or 8) * 1024, setup = function()
      return B.root("", B.tag(TAG.compound, "Metadata", rep(pack(">i1s2i1", TAG.byte, "", 0), budget) .. "\0"))
    end, run = function(doc)
      with_values(budget, function() load_checked(doc, nil, "more than %d+ values") end)
    end })
  if full then
    -- the reported attack: 2^28 - 64 empty compounds under Entities, a 261 KB gzip;
    -- refused at the list's length after one piece is inflated (it took 1.7 s and
    -- 520 MB while the whole document was inflated before the decode)
    add({ name = "2^28 empty compounds under Entities (issue 27)", seconds = 0.25, kb = 32 * 1024,
      setup = function() return compound_flood_gz("Entities", 2 ^ 28 - 64) end,
      run = function(gz) load_checked(gz, nil, "more than 8388608 values") end })
  end

  -- Joined palettes (issue 27): distinct states refused as they are decoded; the
  -- same states in every region load, and paste defines the used ones only.
  local k = full and 63 or 2
  add(file_case(format("%d regions of 65536 distinct states", k), full and 10 or 6, (full and 900 or 120) * 1024,
    function()
      return one_cell_regions(k, function(i) return states(format("r%d_", i), 65536) end, 1)
    end, nil, "joined lists BlockStatePalette of more than 65536 distinct entries"))
  add(file_case(format("%d regions sharing 65536 states", full and 63 or 3), full and 60 or 10,
    (full and 1800 or 200) * 1024, function()
      local shared = states("s", 65535)
      table.insert(shared, 1, B.state_entry("minecraft:air"))
      return one_cell_regions(full and 63 or 3, function() return shared end, 7)
    end, nil, true))

  -- Huge dimensions and sizes past the data: refused before anything is allocated.
  add(file_case("Sponge 65535^3 with 10 bytes", 1, 4096,
    function() return B.sponge2(65535, 65535, 65535, { "minecraft:air" }, rep("\0", 10)) end, nil,
    "BlockData too short"))
  add(file_case("Sponge v3 65535^3 with 10 bytes", 1, 4096,
    function() return B.sponge3(65535, 65535, 65535, { "minecraft:air" }, rep("\0", 10)) end, nil,
    "Blocks.Data too short"))
  add(file_case("MCEdit 65535^3 with 10 bytes", 1, 4096,
    function() return B.mcedit(65535, 65535, 65535, rep("\0", 10), rep("\0", 10)) end, nil,
    "Blocks too short"))
  add(file_case("structure 65535^3 of nothing", 1, 4096,
    function() return B.structure({ 65535, 65535, 65535 }, {}, 0, "") end, nil, "would take %d+ bytes"))
  add(file_case("Litematica region 65535^3", 1, 4096, function()
    return B.litematic({ B.region("r", { 0, 0, 0 }, { 65535, 65535, -65535 }, states("s", 3), 1, rep("\0", 8)) })
  end, nil, "BlockStates has 1 longs"))
  add(file_case("Litematica regions spanning 2^31", 1, 4096, function()
    return B.litematic({ B.region("a", { -2147483648, 0, 0 }, { 1, 1, 1 }, states("s", 1), 1, rep("\0", 8)),
      B.region("b", { 2147483647, 0, 0 }, { 1, 1, 1 }, states("s", 1), 1, rep("\0", 8)) })
  end, nil, "regions span"))
  local box = full and { 2048, 2048, 64 } or { 256, 256, 64 }
  add(file_case(format("structure %dx%dx%d of air", box[1], box[2], box[3]), full and 40 or 2,
    (full and 1400 or 40) * 1024, function() return B.structure(box, {}, 0, "") end, nil, true))

  -- Bad packed arrays.
  add(file_case("Litematica index past the palette", 1, 4096, function()
    return B.litematic({ B.region("r", { 0, 0, 0 }, { 4, 1, 1 }, states("s", 3), 1, rep("\255", 8)) })
  end, nil, 'region "r" cell 0: palette index 3 out of range'))
  add(file_case("Litematica BlockStates too short", 1, 4096, function()
    return B.litematic({ B.region("r", { 0, 0, 0 }, { 100, 1, 1 }, states("s", 3), 1, rep("\0", 8)) })
  end, nil, "BlockStates has 1 longs, 100 cells of 2 bits need 4"))
  add(file_case("Litematica BlockStates of the wrong tag", 1, 4096, function()
    return B.litematic({ B.comp("r", B.comp("Position", B.int("x", 0), B.int("y", 0), B.int("z", 0)),
      B.comp("Size", B.int("x", 1), B.int("y", 1), B.int("z", 1)), B.list("BlockStatePalette", 10, states("s", 1)),
      B.ints("BlockStates", { 0, 0 })) })
  end, nil, "missing or invalid BlockStates"))
  for _, v in ipairs{
    { "a 6-byte varint", "\128\128\128\128\128\1", "longer than 5 bytes" },
    { "a varint past 32 bits", "\255\255\255\255\15", "exceeds 32 bits" },
    { "a truncated varint", "\128", "truncated varint" },
    { "a varint past the palette", "\200\1", "palette index 200 out of range" },
  } do
    add(file_case("Sponge BlockData with " .. v[1], 1, 4096,
      function() return B.sponge2(1, 1, 1, { "minecraft:stone" }, v[2]) end, nil, v[3]))
  end
  add(file_case("MCEdit AddBlocks of the wrong length", 1, 4096, function()
    return B.mcedit(3, 1, 1, "\1\2\3", "\0\0\0", B.bytes("AddBlocks", "\255\255\255\255"))
  end))

  -- Costly shapes within the caps: each linear in what it holds.
  -- fences beside stairs are the costliest cells of any format (docs/schematics.md)
  local side = full and 192 or 48
  add(file_case(format("MCEdit %d^3 of fences and stairs", side), full and 150 or 6, (full and 2500 or 120) * 1024,
    function()
      local n = side * side * side
      local ids = rep("\85\53", n / 2) -- fences (85) and oak stairs (53) alternating
      return B.mcedit(side, side, side, ids, rep("\0", n))
    end, nil, true))
  local listed = full and 1300000 or 60000
  add(file_case(format("structure listing %d blocks", listed), full and 60 or 8, (full and 2500 or 120) * 1024,
    function()
      local body, w = {}, 1024
      for i = 0, listed - 1 do body[#body + 1] = B.structure_block(i % w, 0, (i - i % w) / w, 0) end
      return B.structure({ w, 1, (listed - listed % w) / w + 1 }, states("s", 1), listed, table.concat(body))
    end, nil, true))
  c[#c].kept_kb = 8192 -- Lua's string table, grown for the keys of a million compounds
  local wide = full and 724 or 64
  add(file_case(format("64 one-wide Litematica regions of 1x%dx%d", wide, wide), full and 150 or 6,
    (full and 1500 or 100) * 1024, function()
      local regions, cells = {}, wide * wide
      local longs = (cells * 2 + 63 - (cells * 2 + 63) % 64) / 64
      local body = rep(pack(">i8", 0x5555555555555555), longs) -- every cell index 1
      for i = 1, 64 do
        regions[i] = B.region(format("r%02d", i), { i - 1, 0, 0 }, { 1, wide, wide },
          { B.state_entry("minecraft:air"), B.state_entry("minecraft:stone") }, longs, body)
      end
      return B.litematic(regions)
    end, nil, true))
  local vcells = full and 16 * MB or MB
  add(file_case(format("Sponge of %d two-byte varints", vcells), full and 80 or 10, (full and 1200 or 120) * 1024,
    function()
      local pal = {}
      for i = 1, 300 do pal[i] = "minecraft:s" .. i end
      return B.sponge2(4096, vcells / 4096, 1, pal, rep("\171\2", vcells)) -- index 299
    end, nil, true))
  add(file_case("Sponge palette of 65536 states, one cell", 6, 200 * 1024, function()
    local pal = {}
    for i = 1, 65536 do pal[i] = "minecraft:s" .. i end
    return B.sponge2(1, 1, 1, pal, "\5")
  end, nil, true))
  c[#c].kept_kb = 4096 -- Lua's string table grows once for 65,536 new strings, and stays

  -- Every truncation of the lobby (raw NBT; short: every 23rd and the first and last
  -- 300) and of its gzip file, and seeded mutants of both.
  -- (the peak is mostly the allocator's: a few MB of Lua memory, more of the heap)
  add({ name = "every truncation of the lobby's gzip", seconds = full and 10 or 8, kb = 256 * 1024,
    run = function()
      local _, gz = lobby()
      for cut = 0, #gz - 1 do load_checked(gz:sub(1, cut)) end
    end })
  add({ name = "truncations of the lobby's NBT", seconds = full and 90 or 6, kb = 16 * 1024, run = function()
    local raw = lobby()
    for cut = 0, #raw - 1 do
      if full or cut < 300 or cut > #raw - 300 or cut % 23 == 0 then
        check(load_checked(raw:sub(1, cut)) == nil, "a cut at %d loaded", cut)
      end
    end
  end })
  local mutants = full and 20000 or 500
  add({ name = format("%d seeded mutants of the lobby", mutants), seconds = full and 300 or 15,
    kb = 64 * 1024, run = function()
      local raw, gz = lobby()
      local R = H.rng(27)
      local extremes = { "\127\255\255\255", "\128\0\0\0", "\255\255\255\255", "\0\0\255\255", "\0\1\0\0",
        "\0\0\0\0", "\255\255", "\127\255", "\0\0" }
      for i = 1, mutants do
        local src = (i % 10 == 0) and gz or raw
        local s = src
        for _ = 1, R(4) do
          if #s < 2 then break end
          local at = R(#s)
          local op = R(6)
          if op == 1 then s = s:sub(1, at - 1) .. char(R(256) - 1) .. s:sub(at + 1)
          elseif op == 2 then s = s:sub(1, at - 1) .. extremes[R(#extremes)] .. s:sub(at + #extremes[1])
          elseif op == 3 then s = s:sub(1, at) .. s:sub(at + R(64))
          elseif op == 4 then s = s:sub(1, at) .. s:sub(at - R(64), at) .. s:sub(at + 1)
          elseif op == 5 then s = s:sub(1, at - 1) .. char(R(13)) .. s:sub(at + 1) -- a tag type
          else s = s:sub(1, at - 1) .. extremes[R(#extremes)] .. s:sub(at) end
        end
        local sc = load_checked(s)
        if sc and i % 4 == 0 then paste_checked(sc) end
      end
    end })
  return c
end

return files
