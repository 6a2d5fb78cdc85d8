-- luacheck: std +busted
-- Specs for blockphys.nbt: every tag type, byte order, nesting and hostile
-- input. Documents are built by hand with C.pack so each byte is known.

local nbt = require "blockphys.nbt"
local C = require "helpers.compat"
local H = require "helpers.world"

local pack = C.pack
local format = string.format

-- The extreme longs, written as bytes (a double cannot hold 2^63 - 1), and their
-- values: integers where Lua has them, else the nearest doubles (-2^63 exactly, 2^63).
local MIN64, MAX64 = "\128\0\0\0\0\0\0\0", "\127\255\255\255\255\255\255\255"
local MIN64_VALUE, MAX64_VALUE = math.mininteger or -2 ^ 63, math.maxinteger or 2 ^ 63

-- Named tag: type id, name (u16 length + bytes), payload.
local function named(id, name, payload) return pack(">i1s2", id, name) .. payload end
local function compound(...) return table.concat({ ... }) .. "\0" end
local function root(payload, name) return named(10, name or "", payload) end
local function list(elem, n, payload) return pack(">i1i4", elem, n) .. (payload or "") end

-- One document holding every tag type, reused by the truncation specs.
local function every_tag_document()
  return root(compound(
    named(1, "b", pack(">i1", -128)),
    named(2, "s", pack(">i2", -32768)),
    named(3, "i", pack(">i4", -2147483648)),
    named(4, "l", MIN64),
    named(5, "f", pack(">f", 1.5)),
    named(6, "d", pack(">d", -0.25)),
    named(7, "ba", pack(">i4", 3) .. "\0\1\255"),
    named(8, "str", pack(">s2", "h\192\128i")),
    named(9, "li", list(3, 2, pack(">i4i4", 7, -7))),
    named(9, "empty", list(0, 0)),
    named(9, "lc", list(10, 2, compound(named(1, "x", "\1")) .. compound())),
    named(10, "c", compound(named(8, "name", pack(">s2", "inner")))),
    named(11, "ia", pack(">i4i4i4i4", 3, 1, -1, 2147483647)),
    named(12, "la", pack(">i4", 2) .. MAX64 .. "\255\255\255\255\255\255\255\254")
  ), "Root")
end

describe("blockphys.nbt", function()
  describe("decode()", function()
    local name, v, kind, used
    local doc = every_tag_document()

    setup(function()
      name, v, kind, used = nbt.decode(doc)
    end)

    it("returns the root name, value, root type and bytes used", function()
      assert.equal("Root", name)
      assert.equal("table", type(v))
      assert.equal("compound", kind)
      assert.equal(#doc, used)
    end)

    it("reads signed big-endian integers at their extremes", function()
      assert.equal(-128, v.b)
      assert.equal(-32768, v.s)
      assert.equal(-2147483648, v.i)
      assert.equal(MIN64_VALUE, v.l)
      assert.equal("integer", C.mtype(v.l))
    end)

    it("reads big-endian floats and doubles", function()
      assert.equal(1.5, v.f)
      assert.equal(-0.25, v.d)
      assert.equal("float", C.mtype(v.f))
    end)

    it("reads positive values with the high byte set", function()
      local _, r = nbt.decode(root(compound(
        named(2, "s", "\1\0"), named(3, "i", "\0\1\0\0"),
        named(4, "l", "\0\0\0\1\0\0\0\0"), named(4, "big", "\127\255\255\255\255\255\255\255"))))
      assert.equal(256, r.s)
      assert.equal(65536, r.i)
      assert.equal(4294967296, r.l)
      assert.equal(MAX64_VALUE, r.big) -- 2^63 - 1 (rounded to 2^63 where numbers are doubles)
    end)

    it("returns byte arrays as strings", function()
      assert.equal("\0\1\255", v.ba)
    end)

    it("keeps string bytes as they are (modified UTF-8 is not re-encoded)", function()
      assert.equal("h\192\128i", v.str)
    end)

    it("returns lists as arrays tagged with their element type", function()
      assert.same({ 7, -7 }, { v.li[1], v.li[2] })
      assert.equal(2, #v.li)
      assert.equal("int", nbt.list_type(v.li))
      assert.equal("list", nbt.kind(v.li))
    end)

    it("accepts an empty list of type End", function()
      assert.equal(0, #v.empty)
      assert.equal("end", nbt.list_type(v.empty))
    end)

    it("accepts an empty list of a real type", function()
      local _, r = nbt.decode(root(compound(named(9, "e", list(3, 0)))))
      assert.equal(0, #r.e)
      assert.equal("int", nbt.list_type(r.e))
    end)

    it("reads lists of compounds", function()
      assert.equal("compound", nbt.list_type(v.lc))
      assert.equal(1, v.lc[1].x)
      assert.same({}, v.lc[2])
      assert.equal("compound", nbt.kind(v.lc[2]))
    end)

    it("reads nested compounds", function()
      assert.equal("inner", v.c.name)
      assert.is_nil(nbt.list_type(v.c))
    end)

    it("reads int arrays as arrays of integers", function()
      assert.same({ 1, -1, 2147483647 }, { v.ia[1], v.ia[2], v.ia[3] })
      assert.equal(3, #v.ia)
      assert.equal("int_array", nbt.kind(v.ia))
    end)

    it("reads long arrays as arrays of integers", function()
      assert.same({ MAX64_VALUE, -2 }, { v.la[1], v.la[2] })
      assert.equal("long_array", nbt.kind(v.la))
      -- every bit, on every Lua: the high and low unsigned halves of each long
      assert.same({ 0x7FFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFE }, nbt.long_words(v.la))
    end)

    it("reads int arrays longer than one unpack slice", function()
      local vals = {}
      for i = 1, 1000 do vals[i] = i * 3 - 1500 end
      local payload = pack(">i4", #vals) .. pack(">" .. string.rep("i4", #vals), C.unpack_table(vals))
      local _, r = nbt.decode(root(compound(named(11, "a", payload))))
      assert.equal(1000, #r.a)
      assert.equal(-1497, r.a[1])
      assert.equal(1500, r.a[1000])
      assert.equal(1269, r.a[923])
    end)

    it("reads a list of lists", function()
      local inner = list(1, 2, "\5\6")
      local _, r = nbt.decode(root(compound(named(9, "ll", list(9, 2, inner .. list(0, 0))))))
      assert.equal("list", nbt.list_type(r.ll))
      assert.same({ 5, 6 }, { r.ll[1][1], r.ll[1][2] })
      assert.equal("byte", nbt.list_type(r.ll[1]))
      assert.equal(0, #r.ll[2])
    end)

    it("lets the last of two duplicate names win", function()
      local _, r = nbt.decode(root(compound(named(1, "a", "\1"), named(1, "a", "\2"))))
      assert.equal(2, r.a)
    end)

    it("accepts a non-compound root", function()
      local n, r, k = nbt.decode(named(8, "greeting", pack(">s2", "hi")))
      assert.equal("greeting", n)
      assert.equal("hi", r)
      assert.equal("string", k)
    end)

    it("ignores bytes after the root tag and reports how many were used", function()
      local d = root(compound()) .. "padding"
      local n, r, _, u = nbt.decode(d)
      assert.equal("", n)
      assert.same({}, r)
      assert.equal(#d - 7, u)
    end)

    it("accepts nesting up to the limit", function()
      local d = "\0"
      for _ = 1, 511 do d = named(10, "n", d) .. "\0" end
      local _, r = nbt.decode(root(d))
      local depth = 0
      while r.n do r, depth = r.n, depth + 1 end
      assert.equal(511, depth)
    end)
  end)

  describe("decode() on bad input", function()
    local function fails(doc, pattern, opts)
      local ok, a, b = pcall(nbt.decode, doc, opts)
      assert.is_true(ok, "decode raised: " .. tostring(a))
      assert.is_nil(a)
      assert.equal("string", type(b))
      if pattern then assert.matches(pattern, b) end
      return b
    end

    it("returns nil and a message for every truncation of a valid document", function()
      local doc = every_tag_document()
      for cut = 0, #doc - 1 do
        local msg = fails(doc:sub(1, cut))
        assert.matches("^nbt: ", msg)
      end
    end)

    it("names the truncated field and the offset", function()
      assert.equal("nbt: truncated root tag type at byte 0: need 1 bytes, 0 left", fails(""))
      assert.equal("nbt: truncated int at byte 7: need 4 bytes, 2 left",
        fails(root(named(3, "i", "\0\0"))))
    end)

    it("rejects a document whose root is End", function()
      fails("\0", "^nbt: document has no root tag$")
    end)

    it("rejects unknown tag types", function()
      fails(root(compound(named(13, "x", ""))), "unknown tag type 13")
      fails(root(compound(named(-1, "x", ""))), "unknown tag type %-1")
      fails(root(compound(named(9, "l", list(99, 0)))), "unknown list element type 99")
      fails(named(42, "", ""), "unknown root tag type 42")
    end)

    it("says so when handed gzip-compressed bytes", function()
      fails("\31\139\8\0\0\0\0\0", "^nbt: gzip%-compressed data %(inflate it first, " ..
        "or use blockphys%.schematic%.load%)$")
      fails("\31\0", "unknown root tag type 31")
    end)

    it("rejects negative lengths", function()
      fails(root(compound(named(7, "a", pack(">i4", -1)))), "negative byte array length %-1")
      fails(root(compound(named(9, "l", list(1, -5)))), "negative list length %-5")
      fails(root(compound(named(11, "a", pack(">i4", -2147483648)))), "negative int array length")
      fails(root(compound(named(12, "a", pack(">i4", -3)))), "negative long array length %-3")
    end)

    it("rejects huge claimed lengths before allocating", function()
      fails(root(compound(named(7, "a", pack(">i4", 2147483647)))),
        "byte array length 2147483647 at byte %d+ exceeds the 1 bytes left")
      fails(root(compound(named(11, "a", pack(">i4", 1000000) .. "\0\0\0\0"))),
        "int array length 1000000")
      fails(root(compound(named(12, "a", pack(">i4", 2) .. pack(">i8", 1) .. "\0"))),
        "long array length 2 at byte %d+ exceeds the 10 bytes left")
      -- 2^31-1 compounds need at least one byte each.
      fails(root(compound(named(9, "l", list(10, 2147483647, "\0\0")))),
        "list length 2147483647 at byte %d+ exceeds")
      fails(root(compound(named(9, "l", list(4, 3, pack(">i8i8", 1, 2))))),
        "list length 3 at byte %d+ exceeds the 17 bytes left")
    end)

    it("rejects a non-empty list of End tags (it would cost nothing per element)", function()
      fails(root(compound(named(9, "l", list(0, 1000000000)))),
        "list of type end with 1000000000 elements")
    end)

    it("rejects strings longer than the data", function()
      fails(root(compound(named(8, "s", pack(">I2", 65535) .. "abc"))),
        "truncated string at byte %d+: need 65535 bytes, 4 left")
    end)

    it("limits the values one document decodes into (nbt.MAX_VALUES, 2^23)", function()
      -- one input byte per empty compound: bytes alone do not bound memory
      assert.equal(8388608, nbt.MAX_VALUES)
      local n = nbt.MAX_VALUES + 1
      local bomb = root(compound(named(9, "l", list(10, n, string.rep("\0", n)))))
      assert.same({ nil, "nbt: more than 8388608 values (nbt.MAX_VALUES) at byte 7" }, -- the element type
        { nbt.decode(bomb) })
      local saved = nbt.MAX_VALUES
      nbt.MAX_VALUES = 4 -- counted: list elements, compound entries, array elements
      local ok = { pcall(function()
        return {
          select(3, nbt.decode(root(compound(named(9, "l", list(10, 2, "\0\0")), named(1, "b", "\1"))))),
          nbt.decode(root(compound(named(9, "l", list(10, 2, "\0\0")), named(1, "b", "\1"),
            named(1, "c", "\1")))),
          nbt.decode(root(compound(named(11, "ia", pack(">i4i4i4i4i4", 4, 1, 2, 3, 4))))),
        }
      end) }
      nbt.MAX_VALUES = saved
      assert.is_true(ok[1], tostring(ok[2]))
      assert.equal("compound", ok[2][1]) -- l, its 2 elements and b: 4 values
      assert.is_nil(ok[2][2])             -- and c: 5
      assert.is_nil(ok[2][3])             -- ia and its 4 elements: 5
    end)

    it("limits nesting depth", function()
      local d = "\0"
      for _ = 1, 600 do d = named(10, "n", d) .. "\0" end
      fails(root(d), "nesting deeper than 512")
      local l = list(0, 0)
      for _ = 1, 600 do l = list(9, 1, l) end
      fails(root(compound(named(9, "l", l))), "nesting deeper than 512")
    end)

    it("honours a smaller max_depth", function()
      local d = root(compound(named(10, "a", compound(named(10, "b", compound())))))
      assert.is_table(select(2, nbt.decode(d)))
      fails(d, "nesting deeper than 2", { max_depth = 2 })
    end)

    it("returns nil and a message for bad options, without raising", function()
      local d = root(compound())
      fails(d, "^nbt: opts must be a table, got number$", 5)
      fails(d, "^nbt: opts.max_depth must be a non%-negative integer$", { max_depth = "x" })
      fails(d, "^nbt: opts.max_depth must be a non%-negative integer$", { max_depth = 2.5 })
      fails(d, "^nbt: opts.max_depth must be a non%-negative integer$", { max_depth = -1 })
      assert.equal("compound", select(3, nbt.decode(d, { max_depth = 1 })))
      assert.equal("compound", select(3, nbt.decode(d, {})))
      fails(d, "^nbt: opts.max_depth must be a non%-negative integer$", { max_depth = false })
      fails(d, "^nbt: unknown option max_dpeth %(only max_depth%)$", { max_dpeth = 4 })
      fails(d, "^nbt: unknown option of type number %(only max_depth%)$", { 4 })
      fails(d, "^nbt: unknown option of type boolean %(only max_depth%)$", { max_depth = 4, [true] = 1 })
      -- options are read raw: a metamethod that raises is never called
      local hostile = setmetatable({}, { __index = function() error("i") end })
      assert.equal("compound", select(3, nbt.decode(d, hostile)))
    end)

    it("rejects values that are not strings", function()
      assert.same({ nil, "nbt: expected a string, got table" }, { nbt.decode({}) })
      assert.same({ nil, "nbt: expected a string, got nil" }, { nbt.decode() })
    end)

    it("survives random corruption of a valid document", function()
      H.each_corruption(every_tag_document(), 12345, 2000, function(bad)
        local ok, a, b = pcall(nbt.decode, bad)
        assert.is_true(ok)
        assert.is_true(a ~= nil or type(b) == "string")
      end)
    end)
  end)

  -- nbt._decode(bytes, opts, skip): the schematic loaders leave out entries they
  -- never read (block entities, entities, ticks); the skipped bytes are still checked.
  describe("_decode() with skipped names", function()
    local doc = every_tag_document()

    it("leaves out every entry so named, of every type, and ends where decode ends", function()
      local skip = { b = 1, s = 2, i = 3, l = 4, f = 5, d = 6, ba = 7, str = 8, li = 9, empty = 9,
                     lc = 9, ia = 11, la = 12 }
      local name, v, kind, used = nbt._decode(doc, nil, skip)
      assert.same({ "Root", "compound", #doc }, { name, kind, used })
      assert.same({ c = { name = "inner" } }, v)
      local _, inner = nbt._decode(doc, nil, { name = 8 }) -- at any depth
      assert.same({}, inner.c)
      local _, typed = nbt._decode(doc, nil, { name = 10, b = 3 }) -- only with the type given
      assert.same({ name = "inner" }, typed.c)
      assert.equal(-128, typed.b)
      local _, kept = nbt._decode(doc, nil, { "c", name = 8 }) -- the entries of skip[1] stay
      assert.same({ name = "inner" }, kept.c)
    end)

    it("counts no values in what it skips", function()
      local n = nbt.MAX_VALUES + 1
      local big = root(compound(named(9, "Entities", list(1, n, string.rep("\1", n))),
                                named(3, "kept", pack(">i4", 5))))
      local ok, err = nbt.decode(big)
      assert.is_nil(ok)
      assert.truthy(err:find("more than 8388608 values", 1, true), err)
      local _, v = nbt._decode(big, nil, { Entities = 9 })
      assert.same({ kept = 5 }, v)
    end)

    it("still refuses truncated or malformed bytes inside a skipped entry", function()
      for cut = #doc - 1, 8, -1 do
        assert.is_nil((nbt._decode(doc:sub(1, cut), nil, { lc = 9, la = 12, str = 8 })))
      end
      local bad = root(compound(named(9, "E", list(10, 1, named(99, "x", "")))))
      local ok, err = nbt._decode(bad, nil, { E = 9 })
      assert.is_nil(ok)
      assert.equal("nbt: unknown tag type 99 at byte 12", err) -- as decode says it
      assert.equal(err, select(2, nbt.decode(bad)))
    end)
  end)

  describe("list_type() and kind()", function()
    it("return nil for values that are not decoded containers", function()
      assert.is_nil(nbt.list_type({}))
      assert.is_nil(nbt.list_type("x"))
      assert.is_nil(nbt.kind(5))
      assert.equal("compound", nbt.kind({}))
    end)
  end)

  -- Pins found by mutation testing: exact bounds, offsets and messages.
  describe("decode() exact bounds and offsets", function()
    local function err(doc, opts)
      local a, b = nbt.decode(doc, opts)
      assert.is_nil(a)
      return b
    end
    -- One minimal element of each type: the MIN_SIZE table's entry in bytes.
    local minimal = {
      pack(">i1", 1), pack(">i2", 1), pack(">i4", 1), pack(">i8", 1), pack(">f", 1), pack(">d", 1),
      pack(">i4", 0), pack(">s2", ""), list(1, 0), "\0", pack(">i4", 0), pack(">i4", 0),
    }

    it("accepts a list whose minimal elements exactly fill the data, and not one byte less", function()
      -- Pins MIN_SIZE per element type and the `>` in read_length's check
      -- (a root list is the last thing in the document, so nothing follows).
      for t = 1, 12 do
        local p = minimal[t] .. minimal[t]
        local _, v, kind, used = nbt.decode(named(9, "", list(t, 2, p)))
        assert.equal("list", kind)
        assert.equal(8 + #p, used)
        assert.equal(2, #v)
        assert.equal(nbt.TAG_NAMES[t], nbt.list_type(v))
        assert.equal(format("nbt: list length 2 at byte 4 exceeds the %d bytes left", #p - 1),
          err(named(9, "", list(t, 2, p:sub(1, -2)))))
      end
    end)

    it("reports the byte offset of a bad length prefix", function()
      -- Pins `r.pos - 5` (the offset of the length field) in both messages.
      assert.equal("nbt: byte array length 5 at byte 7 exceeds the 3 bytes left",
        err(root(compound(named(7, "a", pack(">i4", 5) .. "ab")))))
      assert.equal("nbt: negative byte array length -1 at byte 7",
        err(root(compound(named(7, "a", pack(">i4", -1))))))
    end)

    it("reports the byte offset of bad tag and list types", function()
      assert.equal("nbt: unknown list element type 99 at byte 7",
        err(root(compound(named(9, "l", list(99, 0))))))
      assert.equal("nbt: unknown tag type 13 at byte 3", err(root(compound(named(13, "x", "")))))
      -- A single End element is already too many (pins `n > 0` and `r.pos - 6`).
      assert.equal("nbt: list of type end with 1 elements at byte 7",
        err(root(compound(named(9, "l", list(0, 1))))))
      -- Pins `r.pos - 1`: the offset where the too-deep payload starts.
      assert.equal("nbt: nesting deeper than 2 at byte 11",
        err(root(compound(named(10, "a", compound(named(10, "b", compound()))))), { max_depth = 2 }))
    end)

    it("accepts the highest tag type (long_array) as list element and as root", function()
      -- Pins `> #TAG_NAMES` (not `>=`) in read_list and decode_root.
      local _, v = nbt.decode(named(9, "", list(12, 1, pack(">i4i8", 1, 7))))
      assert.equal("long_array", nbt.list_type(v))
      assert.equal("long_array", nbt.kind(v[1]))
      assert.equal(7, v[1][1])
      local _, a, kind, used = nbt.decode(named(12, "", pack(">i4i8", 1, -5)))
      assert.equal("long_array", kind)
      assert.equal(15, used)
      assert.same({ -5 }, { C.unpack_table(a) })
    end)

    it("mentions gzip only for the full gzip magic", function()
      -- Pins the `id == 0x1f and` half of the gzip check.
      assert.equal("nbt: unknown root tag type 42", err("\42\139"))
    end)

    it("accepts max_depth = 0 for a scalar root", function()
      -- Pins `max_depth < 0` (0 is a valid limit: no containers at all).
      assert.same({ "", 5, "byte", 4 }, { nbt.decode(named(1, "", "\5"), { max_depth = 0 }) })
      assert.equal("nbt: nesting deeper than 0 at byte 3", err(root(compound()), { max_depth = 0 }))
    end)

    it("prefixes unexpected Lua errors with nbt: too", function()
      -- A raised max_depth lets the recursion overflow the Lua stack; the
      -- error still comes back as nil, "nbt: ..." (pins the fallback branch).
      local n = 300000
      local msg = err(string.rep("\10\0\0", n) .. string.rep("\0", n), { max_depth = 10000000 })
      assert.matches("^nbt: .*stack overflow", msg)
    end)

    it("list_type() ignores a foreign table that merely has an element field", function()
      -- Pins the identity check against the module's own list metatables.
      assert.is_nil(nbt.list_type(setmetatable({}, { element = "int" })))
      assert.is_nil(nbt.kind(5))
    end)
  end)
end)
