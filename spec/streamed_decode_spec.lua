-- luacheck: std +busted
-- A document decoded as it arrives (blockphys.nbt.reader.decode's `more`, fed by
-- blockphys.schematic.source): the same result as a decode of the whole string, pieces
-- read only as far as the decode needs them, the source's failures as its own
-- messages, and schematic.load refusing what a whole read refused (a cut stream, a
-- document past max_bytes) for documents that decode. Source: our own.
local reader = require "blockphys.nbt.reader"
local nbt = require "blockphys.nbt"
local schematic = require "blockphys.schematic"
local zlib = require "zlib"
local D = require "helpers.nbt_doc"
local H = require "helpers.world"
local C = require "helpers.compat"

local TAG = D.TAG

local function gzip(s) return (zlib.deflate(6, 31)(s, "finish")) end

-- `more` over the string s in pieces of `size` bytes, counting the bytes it gave.
local function pieces_of(s, size)
  local pos, given = 1, { bytes = 0, calls = 0 }
  return function()
    given.calls = given.calls + 1
    if pos > #s then return nil end
    local p = s:sub(pos, pos + size - 1)
    pos = pos + size
    given.bytes = given.bytes + #p
    return p
  end, given
end

local function decode(doc, more)
  return reader.decode(doc, nbt.MAX_DEPTH, nbt.MAX_VALUES, nil, nil, nil, more)
end

local LOBBY = "examples/data/limbo_spawn.schem"

describe("a document decoded as it arrives", function()
  local raw
  setup(function()
    raw = assert(zlib.inflate()(assert(H.read_file(LOBBY))))
  end)

  it("decodes as the whole string does, whatever the size of its pieces", function()
    local name, value, kind, used = decode(raw)
    for _, size in ipairs({ 1, 7, 4096, #raw }) do
      local more = pieces_of(raw, size)
      local n2, v2, k2, u2 = decode("", more)
      assert.equal(name, n2)
      assert.same(value, v2)
      assert.equal(kind, k2)
      assert.equal(used, u2)
    end
  end)

  it("gives a truncated document the whole string's message", function()
    local cut = raw:sub(1, 5000)
    local _, whole = decode(cut)
    local _, streamed = decode("", (pieces_of(cut, 100)))
    assert.matches("^nbt: ", whole)
    assert.equal(whole, streamed)
  end)

  it("refuses a list past the value budget at its length, reading no further", function()
    -- a root holding a list of 2^24 empty compounds: 16 MiB of zeros after 14 bytes
    local head = D.tag(TAG.compound, "", "") .. D.tag(TAG.list, "Entities", C.pack(">i1i4", TAG.compound, 2 ^ 24))
    local body = string.rep("\0", 2 ^ 24) .. "\0"
    local more, given = pieces_of(head .. body, 4096)
    local name, err = decode("", more)
    assert.is_nil(name)
    assert.equal("nbt: more than 8388608 values (nbt.MAX_VALUES) at byte 14", err)
    assert.equal(4096, given.bytes) -- the first piece held the list's length
    -- the whole string, which has every byte at hand, gives the same message
    assert.equal(err, select(2, decode(head .. body)))
  end)

  it("returns the source's failure as its own message", function()
    local calls = 0
    local function failing()
      calls = calls + 1
      if calls == 1 then return raw:sub(1, 10) end
      return nil, "decompressed data exceeds 10 bytes"
    end
    assert.same({ nil, "decompressed data exceeds 10 bytes" }, { decode("", failing) })
  end)
end)

describe("schematic.load reading as it decodes", function()
  local doc = D.root("", D.int("Version", 2), D.short("Width", 1), D.short("Height", 1),
    D.short("Length", 1), D.tag(TAG.compound, "Palette", D.int("minecraft:stone", 0) .. "\0"),
    D.tag(7, "BlockData", C.pack(">i4", 1) .. "\0"))

  it("loads the document it decodes", function()
    local s = assert(schematic.load(gzip(doc)))
    assert.equal("minecraft:stone", s:get(0, 0, 0))
  end)

  it("still refuses a document that decodes but runs past max_bytes", function()
    local padded = gzip(doc .. string.rep("\0", 1000)) -- padding after the root tag
    assert.is_truthy(schematic.load(padded))
    assert.same({ nil, "schematic: decompressed data exceeds " .. (#doc + 10) .. " bytes" },
      { schematic.load(padded, { max_bytes = #doc + 10 }) })
  end)

  it("still refuses a gzip stream cut after the document's last byte", function()
    local gz = gzip(doc)
    -- the 8-byte trailer (CRC and size) cut: every byte of the document inflates
    assert.same({ nil, "schematic: truncated gzip data (stream ends early)" },
      { schematic.load(gz:sub(1, #gz - 8)) })
  end)

  it("refuses 2^25 empty compounds under Entities (a 33 KB gzip) after one piece", function()
    -- (the reported attack had 2^28 in a 261 KB gzip: the same at 8 times the cost of
    -- building it here)
    local n = 2 ^ 25
    local head = D.tag(TAG.compound, "", "") .. D.tag(TAG.list, "Entities", C.pack(">i1i4", TAG.compound, n))
    local stream, chunk = zlib.deflate(9, 31), string.rep("\0", 2 ^ 20)
    local parts = { (stream(head)) }
    for _ = 1, n / 2 ^ 20 do parts[#parts + 1] = (stream(chunk)) end
    parts[#parts + 1] = (stream("\0", "finish"))
    local gz = table.concat(parts)
    assert.is_true(#gz < 40 * 1024)
    collectgarbage()
    local before = collectgarbage("count")
    collectgarbage("stop") -- what load allocates stays counted
    local s, err = schematic.load(gz)
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    assert.is_nil(s)
    assert.equal("schematic: nbt: more than 8388608 values (nbt.MAX_VALUES) at byte 14", err)
    -- a piece of 4 KB inflates to at most ~4 MiB (deflate's ratio), held a few
    -- times over while it is joined (about 10 MiB under Lua 5.4, 20 under 5.2); a
    -- whole read of the 32 MiB document allocates 64 MiB or more
    assert.is_true(grown < 32 * 1024, ("load allocated %.0f KB"):format(grown))
  end)
end)
