-- luacheck: std +busted
-- world:raycast, world:raycast_entities and world:sweep: exact hits on each axis and
-- sign, diagonals, shapes (slabs, fences rising from the cell below), static
-- colliders, max_distance edges, a start inside a box, negative coordinates and
-- chunk borders, and every error message. Random rays and sweeps through a rough
-- terrain are checked against a brute-force reference over world:boxes_in.
local bp = require "blockphys"
local C = require "helpers.compat"
local H = require "helpers.world"

local SQRT2 = math.sqrt(2)

-- The C normalisation restated: scale by the largest component, then by the length.
local function unit(dx, dy, dz)
  local m = math.max(math.abs(dx), math.abs(dy), math.abs(dz))
  local sx, sy, sz = dx / m, dy / m, dz / m
  local len = math.sqrt(sx * sx + sy * sy + sz * sz)
  return sx / len, sy / len, sz / len
end

-- Brute-force ray: slab test on every box of world:boxes_in over the ray's bounds.
-- Returns the nearest entry distance and its normal (ties keep the first box).
local function reference_ray(w, o, d, max)
  local e = { o[1] + d[1] * max, o[2] + d[2] * max, o[3] + d[3] * max }
  local region = bp.Collider(math.min(o[1], e[1]) - 1e-9, math.min(o[2], e[2]) - 1e-9,
    math.min(o[3], e[3]) - 1e-9, math.max(o[1], e[1]) + 1e-9, math.max(o[2], e[2]) + 1e-9,
    math.max(o[3], e[3]) + 1e-9)
  local best, normal
  for _, b in ipairs(w:boxes_in(region)) do
    local lo, hi = { b.x1, b.y1, b.z1 }, { b.x2, b.y2, b.z2 }
    local enter, leave, axis, miss = -math.huge, math.huge, nil, false
    for a = 1, 3 do
      if d[a] == 0 then
        if not (o[a] > lo[a] and o[a] < hi[a]) then miss = true end
      else
        local t0, t1
        if d[a] > 0 then
          t0, t1 = (lo[a] - o[a]) / d[a], (hi[a] - o[a]) / d[a]
        else
          t0, t1 = (hi[a] - o[a]) / d[a], (lo[a] - o[a]) / d[a]
        end
        if t0 > enter then enter, axis = t0, a end
        leave = math.min(leave, t1)
      end
    end
    local start = math.max(enter, 0)
    if not miss and start < leave and start <= max and (not best or start < best) then
      best = start
      normal = { 0, 0, 0 }
      if enter < 0 then -- inside: against the largest direction component
        axis = 1
        for a = 2, 3 do if math.abs(d[a]) > math.abs(d[axis]) then axis = a end end
      end
      normal[axis] = d[axis] > 0 and -1 or 1
    end
  end
  return best, normal
end

describe("world:raycast", function()
  local w, STONE, SLAB, FENCE
  before_each(function()
    w = H.world()
    STONE, SLAB, FENCE = w:block_id("stone"), w:block_id("slab"), w:block_id("fence")
  end)

  it("hits a block on each axis and sign with the facing normal", function()
    -- stone 5 blocks away on each of the six directions from the centre of (0, 0, 0)
    local cases = {
      { 1, 0, 0, 5, 0, 0 }, { -1, 0, 0, -5, 0, 0 },
      { 0, 1, 0, 0, 5, 0 }, { 0, -1, 0, 0, -5, 0 },
      { 0, 0, 1, 0, 0, 5 }, { 0, 0, -1, 0, 0, -5 },
    }
    for _, c in ipairs(cases) do
      local dx, dy, dz, bx, by, bz = C.unpack_table(c)
      w:set_block(bx, by, bz, "stone")
      local h = w:raycast(0.5, 0.5, 0.5, dx, dy, dz, 10)
      assert.same({ x = bx, y = by, z = bz, id = STONE, nx = -dx, ny = -dy, nz = -dz,
                    -- the face plane: 5 on the positive side, -4 on the negative side
                    hx = dx == 0 and 0.5 or (dx > 0 and 5 or -4),
                    hy = dy == 0 and 0.5 or (dy > 0 and 5 or -4),
                    hz = dz == 0 and 0.5 or (dz > 0 and 5 or -4),
                    distance = 4.5 }, h)
      w:set_block(bx, by, bz, 0)
    end
  end)

  it("normalises the direction: its length does not matter", function()
    w:set_block(5, 0, 0, "stone")
    assert.equal(4.5, w:raycast(0.5, 0.5, 0.5, 1e-300, 0, 0, 10).distance)
    assert.equal(4.5, w:raycast(0.5, 0.5, 0.5, 1e300, 0, 0, 10).distance)
    assert.equal(4.5, w:raycast(0.5, 0.5, 0.5, 1e-320, 0, 0, 10).distance) -- subnormal
  end)

  it("hits a block diagonally through its bottom face", function()
    -- from (0.5, 0.25) along (1, 1): y reaches 3 at x = 3.25, inside block (3, 3)
    w:set_block(3, 3, 0, "stone")
    local h = w:raycast(0.5, 0.25, 0.5, 1, 1, 0, 10)
    assert.equal(3, h.x); assert.equal(3, h.y); assert.equal(0, h.z)
    assert.same({ 0, -1, 0 }, { h.nx, h.ny, h.nz })
    assert.equal(3, h.hy)
    local _, uy = unit(1, 1, 0)
    assert.equal((3 - 0.25) / uy, h.distance) -- the slab-test value itself
    assert.near(2.75 * SQRT2, h.distance, 1e-12)
    assert.near(3.25, h.hx, 1e-12)
    assert.equal(0.5, h.hz)
  end)

  it("passes through the edge between two diagonal blocks; ties take X first", function()
    -- (2, 3) and (3, 2) only touch the ray at the point (3, 3): no interior met
    w:set_block(2, 3, 0, "stone")
    w:set_block(3, 2, 0, "stone")
    assert.is_nil(w:raycast(0.5, 0.5, 0.5, 1, 1, 0, 5))
    -- block (3, 3) is entered on X and Y at once: the normal is X
    w:set_block(3, 3, 0, "stone")
    local h = w:raycast(0.5, 0.5, 0.5, 1, 1, 0, 5)
    assert.same({ 3, 3, -1, 0, 3, 3 }, { h.x, h.y, h.nx, h.ny, h.hx, h.hy })
  end)

  it("tests shapes, not cells: a ray over a bottom slab passes above it", function()
    w:set_block(3, 0, 0, "slab")
    assert.is_nil(w:raycast(0.5, 0.75, 0.5, 1, 0, 0, 10))
    local h = w:raycast(0.5, 0.25, 0.5, 1, 0, 0, 10)
    assert.same({ x = 3, y = 0, z = 0, id = SLAB, nx = -1, ny = 0, nz = 0,
                  hx = 3, hy = 0.25, hz = 0.5, distance = 2.5 }, h)
    -- from above: the slab top, exactly 0.5
    h = w:raycast(3.5, 10, 0.5, 0, -1, 0, 20)
    assert.same({ x = 3, y = 0, z = 0, id = SLAB, nx = 0, ny = 1, nz = 0,
                  hx = 3.5, hy = 0.5, hz = 0.5, distance = 9.5 }, h)
  end)

  it("a ray gliding along a face does not hit it", function()
    H.flat(w, 0)
    assert.is_nil(w:raycast(0.5, 1, 0.5, 1, 0, 0, 10)) -- along the floor's top plane
    assert.is_nil(w:raycast(0.5, 1, 0.5, 1, 0, 1, 10))
  end)

  it("hits a fence's upper half from the cell above its own", function()
    -- the post at (0, 0, -3) rises to 1.5: a ray at y = 1.25 walks cells of y = 1
    w:set_block(0, 0, -3, "fence")
    local h = w:raycast(0.5, 1.25, 0.5, 0, 0, -1, 10)
    assert.same({ x = 0, y = 0, z = -3, id = FENCE, nx = 0, ny = 0, nz = 1,
                  hx = 0.5, hy = 1.25, hz = -2.375, distance = 2.875 }, h)
    h = w:raycast(0.5, 5, -2.5, 0, -1, 0, 10)
    assert.same({ 0, 0, -3, 1.5, 3.5 }, { h.x, h.y, h.z, h.hy, h.distance })
    assert.is_nil(w:raycast(0.5, 1.75, 0.5, 0, 0, -1, 10)) -- above the post
  end)

  it("hits static colliders: nil block, collider = true and its handle", function()
    local c = w:add_collider(bp.Collider(2, 0, 0, 2.5, 1, 1))
    local h = w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 10)
    assert.same({ collider = true, handle = c, nx = -1, ny = 0, nz = 0,
                  hx = 2, hy = 0.5, hz = 0.5, distance = 1.5 }, h)
    -- a nearer block wins; at an equal distance the block wins too
    w:set_block(1, 0, 0, "stone")
    assert.equal(1, w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 10).x)
    w:set_block(1, 0, 0, 0)
    w:set_block(2, 0, 0, "stone")
    h = w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 10)
    assert.same({ 2, STONE, nil }, { h.x, h.id, h.collider })
    w:set_block(2, 0, 0, 0)
    w:remove_collider(c)
    assert.is_nil(w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 10))
  end)

  it("counts a face exactly at max_distance, not one beyond it", function()
    w:set_block(5, 0, 0, "stone")
    assert.equal(4.5, w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 4.5).distance)
    assert.is_nil(w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 4.499999999))
    -- the longest ray reaches 4096 blocks
    w:set_block(4000, 0, 0, "stone")
    w:set_block(5, 0, 0, 0)
    assert.equal(3999.5, w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 4096).distance)
    assert.is_nil(w:raycast(0.5, 0.5, 0.5, 1, 0, 0, 3999))
    assert.is_nil(w:raycast(0.5, 0.5, 0.5, -1, 0, 0, 4096))
    assert.equal(4096, bp.limits.max_ray)
  end)

  it("hits a box it starts inside at distance 0, normal against the direction", function()
    w:set_block(5, 0, 0, "stone")
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = -1, ny = 0, nz = 0,
                  hx = 5.5, hy = 0.5, hz = 0.5, distance = 0 },
                w:raycast(5.5, 0.5, 0.5, 1, 0, 0, 10))
    -- the largest direction component picks the normal
    local h = w:raycast(5.5, 0.5, 0.5, 1, -2, 0, 10)
    assert.same({ 0, 0, 1, 0 }, { h.distance, h.nx, h.ny, h.nz })
    -- starting on a face: moving in hits at 0 with that face's normal, moving out misses
    h = w:raycast(5, 0.5, 0.5, 1, 0, 0, 10)
    assert.same({ 0, -1, 5 }, { h.distance, h.nx, h.hx })
    assert.is_nil(w:raycast(6, 0.5, 0.5, 1, 0, 0, 10))
  end)

  -- Started inside, the normal faces back along the largest |direction| component; a
  -- tie between components keeps the first axis, X then Y then Z (as the entry-axis
  -- tie does for a ray from outside). unit(1, 1, 0) has two exactly equal components.
  it("from inside a box, ties between the largest direction components take X, Y, Z", function()
    w:set_block(5, 0, 0, "stone")
    for _, c in ipairs{
      { 1, 1, 0, -1, 0, 0 }, { 1, 1, 1, -1, 0, 0 }, { -1, 1, 0, 1, 0, 0 },
      { -1, -1, -1, 1, 0, 0 }, { 1, 0, -1, -1, 0, 0 }, { 0, -1, 1, 0, 1, 0 },
      { 0, 1, -1, 0, -1, 0 },
    } do
      local h = w:raycast(5.5, 0.5, 0.5, c[1], c[2], c[3], 10)
      assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = c[4], ny = c[5], nz = c[6],
                    hx = 5.5, hy = 0.5, hz = 0.5, distance = 0 }, h)
    end
  end)

  it("works at negative coordinates and across chunk borders", function()
    w:set_block(-17, -33, -1, "stone")
    -- from x = -0.5 along -X: crosses the chunk border at x = -16, hits the face at -16
    local h = w:raycast(-0.5, -32.5, -0.5, -1, 0, 0, 100)
    assert.same({ x = -17, y = -33, z = -1, id = STONE, nx = 1, ny = 0, nz = 0,
                  hx = -16, hy = -32.5, hz = -0.5, distance = 15.5 }, h)
    -- diagonally across the corner of eight chunks, down onto a block
    w:set_block(-20, -20, -20, "stone")
    h = w:raycast(20.5, 20.5, 20.5, -1, -1, -1, 100)
    assert.same({ -20, -20, -20, 1, 0, 0 }, { h.x, h.y, h.z, h.nx, h.ny, h.nz })
    local ux = unit(-1, -1, -1)
    assert.equal((-19 - 20.5) / ux, h.distance)
    -- near the edge of the int32 grid: blocks there are hit, and beyond is air
    w:set_block(2147483647, 0, 0, "stone")
    h = w:raycast(2147481999.5, 0.5, 0.5, 1, 0, 0, 4096)
    assert.same({ 2147483647, 1647.5, 2147483647 }, { h.x, h.distance, h.hx })
    w:set_block(2147483647, 0, 0, 0)
    assert.is_nil(w:raycast(bp.limits.max_coord, 0.5, 0.5, 1, 0, 0, 4096))
    assert.is_nil(w:raycast(-bp.limits.max_coord, 0.5, 0.5, -1, 0, 0, 4096))
  end)

  it("agrees with a brute-force slab test on 300 random rays through rough terrain", function()
    H.terrain(w, 11, 24)
    w:add_collider(bp.Collider(5.25, 3, 5.25, 7.75, 3.5, 7.75))
    local rand, hits = H.rng(5), 0
    for _ = 1, 300 do
      local o = { rand() * 30 - 3, rand() * 8 - 1, rand() * 30 - 3 }
      local dx, dy, dz = rand() * 2 - 1, rand() * 2 - 1.2, rand() * 2 - 1
      if rand(6) == 1 then dy = 0 end
      if rand(6) == 1 then dx = 0 end
      local max = rand() * 40 + 0.1
      local d = { unit(dx, dy, dz) }
      local want, normal = reference_ray(w, o, d, max)
      local h = w:raycast(o[1], o[2], o[3], dx, dy, dz, max)
      if want then
        hits = hits + 1
        assert.is_table(h)
        assert.equal(want, h.distance)
        assert.same(normal, { h.nx, h.ny, h.nz })
      else
        assert.is_nil(h)
      end
    end
    assert.is_true(hits > 150) -- most rays meet something: the test has teeth
  end)
end)

describe("world:raycast_entities", function()
  local w, a, b
  before_each(function()
    w = H.world()
    a = w:spawn{ x = 0.5, y = 0, z = 5.5 }
    b = w:spawn{ x = 0.5, y = 0, z = 8.5 }
  end)

  it("returns the nearest entity box with normal, hit point and distance", function()
    local z1 = select(3, a:box():unpack())
    local h = w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 20)
    assert.equal(a, h.entity)
    assert.same({ 0, 0, -1, 0.5, 1, z1, z1 - 0.5 },
                { h.nx, h.ny, h.nz, h.hx, h.hy, h.hz, h.distance })
  end)

  it("skips ignore_entity, ignores blocks, and misses above the heads", function()
    assert.equal(b, w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 20, a).entity)
    w:fill(-2, 0, 3, 2, 3, 3, "stone") -- a wall between: entities only
    assert.equal(a, w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 20).entity)
    assert.is_nil(w:raycast_entities(0.5, 2, 0.5, 0, 0, 1, 20))
    assert.is_nil(w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 4)) -- too short
    assert.is_nil(w:raycast_entities(0.5, 1, 0.5, 0, 0, -1, 20))
  end)

  it("from inside an entity: distance 0; ties keep the older entity", function()
    local h = w:raycast_entities(0.5, 1, 5.5, 0, 0, 1, 20)
    assert.same({ a, 0, -1 }, { h.entity, h.distance, h.nz })
    local c = w:spawn{ x = 0.5, y = 0, z = 5.5 } -- same box as a
    assert.equal(a, w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 20).entity)
    w:remove(a)
    assert.equal(c, w:raycast_entities(0.5, 1, 0.5, 0, 0, 1, 20).entity)
  end)

  -- The same rule as for blocks: from inside, ties of |direction| take X, then Y.
  it("from inside an entity, ties between direction components take X, then Y", function()
    for _, c in ipairs{ { 1, 1, 0, -1, 0, 0 }, { -1, 1, 1, 1, 0, 0 }, { 0, -1, 1, 0, 1, 0 } } do
      local h = w:raycast_entities(0.5, 1, 5.5, c[1], c[2], c[3], 20)
      assert.equal(a, h.entity)
      assert.same({ 0, c[4], c[5], c[6], 0.5, 1, 5.5 },
                  { h.distance, h.nx, h.ny, h.nz, h.hx, h.hy, h.hz })
    end
  end)

  it("raises for a removed or foreign ignore_entity", function()
    w:remove(b)
    assert.has_error(function() w:raycast_entities(0, 0, 0, 1, 0, 0, 1, b) end,
      "bad argument #8 to 'raycast_entities' (entity has been removed)")
    local other = bp.World():spawn{ x = 0, y = 0, z = 0 }
    assert.has_error(function() w:raycast_entities(0, 0, 0, 1, 0, 0, 1, other) end,
      "bad argument #8 to 'raycast_entities' (entity belongs to another world)")
    assert.has_error(function() w:raycast_entities(0, 0, 0, 1, 0, 0, 1, {}) end,
      "bad argument #8 to 'raycast_entities' (blockphys.Entity expected, got table)")
  end)
end)

describe("world:sweep", function()
  local w, STONE, SLAB
  before_each(function()
    w = H.world()
    STONE, SLAB = w:block_id("stone"), w:block_id("slab")
  end)

  it("stops at a wall: t, the allowed displacement and the block met", function()
    w:fill(5, 1, -2, 5, 3, 2, "stone")
    local t, ax, ay, az, hit = w:sweep(bp.Collider(0, 1, 0, 1, 2, 1), 10, 0, 0)
    assert.same({ 0.4, 4, 0, 0 }, { t, ax, ay, az })
    assert.same({ x = 5, y = 1, z = 0, id = STONE, nx = -1, ny = 0, nz = 0 }, hit)
    -- moving away from it, or along it: nothing
    t, ax, ay, az, hit = w:sweep(bp.Collider(0, 1, 0, 1, 2, 1), -10, 0, 0)
    assert.same({ 1, -10, 0, 0 }, { t, ax, ay, az })
    assert.is_nil(hit)
    t, ax, ay, az, hit = w:sweep(bp.Collider(4, 1, 0, 5, 2, 1), 0, 0, 10) -- touching its side
    assert.same({ 1, 0, 0, 10 }, { t, ax, ay, az })
    assert.is_nil(hit)
  end)

  it("meets a slab's side below its top and lands on its top from above", function()
    w:set_block(3, 0, 0, "slab")
    local t, ax, _, _, hit = w:sweep(bp.Collider(0, 0.25, 0, 1, 1.25, 1), 10, 0, 0)
    assert.same({ 0.2, 2 }, { t, ax })
    assert.same({ x = 3, y = 0, z = 0, id = SLAB, nx = -1, ny = 0, nz = 0 }, hit)
    -- level with the slab's top it slides over it
    t, ax, _, _, hit = w:sweep(bp.Collider(0, 0.5, 0, 1, 1.5, 1), 10, 0, 0)
    assert.same({ 1, 10 }, { t, ax })
    assert.is_nil(hit)
    -- falling onto it
    local ay
    t, _, ay, _, hit = w:sweep(bp.Collider(3.2, 2, 0.2, 3.8, 3.8, 0.8), 0, -5, 0)
    assert.same({ 0.3, -1.5 }, { t, ay })
    assert.same({ 3, 0, 0, 0, 1, 0 }, { hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz })
  end)

  it("reports a box met exactly at the end (t = 1) and one touched at the start (t = 0)", function()
    w:set_block(5, 0, 0, "stone")
    local t, ax, _, _, hit = w:sweep(bp.Collider(0, 0, 0, 1, 1, 1), 4, 0, 0)
    assert.same({ 1, 4, 5, -1 }, { t, ax, hit.x, hit.nx })
    t, ax, _, _, hit = w:sweep(bp.Collider(4, 0, 0, 5, 1, 1), 1, 0, 0)
    assert.same({ 0, 0, 5 }, { t, ax, hit.x })
    -- a box it already overlaps does not count (bp_aabb_sweep's rule)
    t, _, _, _, hit = w:sweep(bp.Collider(4.5, 0, 0, 5.5, 1, 1), 3, 0, 0)
    assert.same({ 1 }, { t })
    assert.is_nil(hit)
  end)

  -- The cells scanned are those a box touching the swept region can occupy, closed on
  -- both sides: on the low side, lo = ceil(region.lo) - 1, so a region ending exactly
  -- on an integer still scans the cell below it, and a box met exactly at the end of
  -- a move toward -X, -Y or -Z is a hit at t = 1 as toward +X is.
  it("reports a box met exactly at the end of a move toward -X, -Y and -Z (t = 1)", function()
    w:set_block(5, 0, 0, "stone")
    local t, ax, ay, az, hit = w:sweep(bp.Collider(7, 0, 0, 8, 1, 1), -1, 0, 0)
    assert.same({ 1, -1, 0, 0 }, { t, ax, ay, az })
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = 1, ny = 0, nz = 0 }, hit)
    t, ax, ay, az, hit = w:sweep(bp.Collider(5, 4, 0, 6, 5, 1), 0, -3, 0)
    assert.same({ 1, 0, -3, 0 }, { t, ax, ay, az })
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = 0, ny = 1, nz = 0 }, hit)
    t, ax, ay, az, hit = w:sweep(bp.Collider(5, 0, 3.5, 6, 1, 4.5), 0, 0, -2.5)
    assert.same({ 1, 0, 0, -2.5 }, { t, ax, ay, az })
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = 0, ny = 0, nz = 1 }, hit)
  end)

  -- Only a strictly earlier hit replaces the one kept: two boxes met at the same t keep
  -- the first found, blocks in world:boxes_in order (chunk by chunk, cells by Y, Z, X)
  -- before static colliders. The ties below are all met at t = 0.5 (gaps of 4 over a
  -- move of 8, 2 over 4 and 1.5 over 3).
  it("keeps the first of two boxes met at the same time: block before collider, boxes_in order", function()
    w:set_block(5, 0, 0, "stone")
    local c = w:add_collider(bp.Collider(5, 1, 0, 6, 2, 1))
    local t, ax, _, _, hit = w:sweep(bp.Collider(0, 0.5, 0, 1, 1.5, 1), 8, 0, 0)
    assert.same({ 0.5, 4 }, { t, ax })
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = -1, ny = 0, nz = 0 }, hit)
    w:remove_collider(c)
    -- a box landing across four blocks: (10, 0, 0) comes first in boxes_in order
    w:fill(10, 0, 0, 11, 0, 1, "stone")
    local box = bp.Collider(10.5, 3, 0.5, 11.5, 4, 1.5)
    local first = w:boxes_in(bp.Collider(10, 0, 0, 12, 1, 2))[1]
    assert.same({ 10, 0, 0 }, { first.x1, first.y1, first.z1 })
    local ay
    t, _, ay, _, hit = w:sweep(box, 0, -4, 0)
    assert.same({ 0.5, -2 }, { t, ay })
    assert.same({ x = 10, y = 0, z = 0, id = STONE, nx = 0, ny = 1, nz = 0 }, hit)
    -- and the same for two blocks (20, 0, 0) and (20, 1, 0) met side-on at once
    w:fill(20, 0, 0, 20, 1, 0, "stone")
    t, ax, _, _, hit = w:sweep(bp.Collider(17.5, 0.5, 0, 18.5, 1.5, 1), 3, 0, 0)
    assert.same({ 0.5, 1.5 }, { t, ax })
    assert.same({ x = 20, y = 0, z = 0, id = STONE, nx = -1, ny = 0, nz = 0 }, hit)
  end)

  -- The displacement returned is t * d + 0.0: a box touching a block and moving into
  -- it gets t = 0, and 0 x -1 would be -0 on the axes with a negative component.
  -- A -0 component asked for comes back +0 too (no hit: d + 0.0).
  it("never returns -0 in the displacement", function()
    w:set_block(5, 0, 0, "stone")
    local t, ax, ay, az, hit = w:sweep(bp.Collider(4, 0, 0, 5, 1, 1), 1, -1, -1)
    assert.equal(0, t)
    assert.same({ x = 5, y = 0, z = 0, id = STONE, nx = -1, ny = 0, nz = 0 }, hit)
    assert.same({ "0x0p+0", "0x0p+0", "0x0p+0" }, { H.hex(ax), H.hex(ay), H.hex(az) })
    t, ax, ay, az, hit = w:sweep(bp.Collider(0, 3, 0, 1, 4, 1), -0.0, 2, -0.0)
    assert.same({ 1, 2 }, { t, ay })
    assert.is_nil(hit)
    assert.same({ "0x0p+0", "0x0p+0" }, { H.hex(ax), H.hex(az) })
    t, ax, ay, az = w:sweep(bp.Collider(0, 3, 0, 1, 4, 1), -0.0, -0.0, -0.0)
    assert.same({ "0x1p+0", "0x0p+0", "0x0p+0", "0x0p+0" }, { H.hex(t), H.hex(ax), H.hex(ay), H.hex(az) })
  end)

  it("meets static colliders and fences rising from the cell below", function()
    local c = w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1))
    local t, _, ay, _, hit = w:sweep(bp.Collider(0, 0, 0, 1, 1, 1), 0, 10, 0)
    assert.same({ 0.4, 4 }, { t, ay })
    assert.same({ collider = true, handle = c, nx = 0, ny = -1, nz = 0 }, hit)
    w:set_block(0, 0, 3, "fence") -- top at 1.5
    t, _, _, _, hit = w:sweep(bp.Collider(0.25, 1.25, 0, 0.75, 2, 1), 0, 0, 5)
    assert.equal(0.475, t) -- from z = 1 to the post's side at 3.375
    assert.same({ 0, 0, 3 }, { hit.x, hit.y, hit.z })
  end)

  -- t * v can round up by an ulp past the face met; the box would then overlap the
  -- block, and a second sweep, which ignores boxes it overlaps, would pass through.
  it("ends touching the face met, never an ulp inside it", function()
    w:set_block(3, 0, 0, "stone")
    local c = bp.Collider(-0.681, 0.25, 0.25, -0.181, 0.75, 0.75)
    local t, ax, ay, az, hit = w:sweep(c, 5.57, 0, 0)
    assert.is_true(t < 1 and hit ~= nil)
    local moved = c:offset(ax, ay, az)
    assert.is_true(moved.x2 <= 3)
    t, ax = w:sweep(moved, 5.57, 0, 0)
    assert.same({ 0, 0 }, { t, ax })
  end)

  it("with nothing in the way, or no displacement: t = 1 and no hit", function()
    assert.same({ 1, 3, -2, 1 }, { w:sweep(bp.Collider(-20, -20, -20, -19, -19, -19), 3, -2, 1) })
    assert.same({ 1, 0, 0, 0 }, { w:sweep(bp.Collider(0, 0, 0, 1, 1, 1), 0, 0, 0) })
    assert.equal(5, select("#", w:sweep(bp.Collider(0, 0, 0, 1, 1, 1), 0, 0, 0)))
  end)

  it("agrees with Collider:sweep over world:boxes_in on 300 random sweeps", function()
    H.terrain(w, 3, 20)
    local rand, hits = H.rng(9), 0
    for _ = 1, 300 do
      local x, y, z = rand() * 22 - 1, rand() * 6, rand() * 22 - 1
      local c = bp.Collider(x, y, z, x + 0.2 + rand(), y + 0.2 + rand() * 2, z + 0.2 + rand())
      local d = { rand() * 8 - 4, rand() * 6 - 3, rand() * 8 - 4 }
      local want, normal = 1, nil
      local boxes = w:boxes_in(c:extend(d[1], d[2], d[3]))
      for _, b in ipairs(boxes) do
        local t, nx, ny, nz = c:sweep(b, d[1], d[2], d[3])
        if (nx ~= 0 or ny ~= 0 or nz ~= 0) and (not normal or t < want) then
          want, normal = t, { nx, ny, nz }
        end
      end
      local t, ax, ay, az, hit = w:sweep(c, d[1], d[2], d[3])
      assert.equal(want, t)
      local got = { ax, ay, az }
      for a = 1, 3 do
        if normal and normal[a] ~= 0 then -- settled: never past the face met
          assert.is_true(math.abs(got[a] - t * d[a]) <= 1e-12 * (1 + math.abs(c:unpack())))
        else
          assert.equal(t * d[a] + 0.0, got[a])
        end
      end
      local moved = c:offset(ax, ay, az)
      for _, b in ipairs(boxes) do -- the box never ends inside one it did not start in
        assert.is_true(c:overlaps(b) or not moved:overlaps(b))
      end
      if want < 1 then
        hits = hits + 1
        assert.same(normal, { hit.nx, hit.ny, hit.nz })
      end
    end
    assert.is_true(hits > 100)
  end)

  -- A wall and a ceiling met at the same t: the wall's axis is settled onto its face,
  -- and t x dy, computed as it is, lands an ulp past the ceiling's. The moved box must
  -- not end inside the ceiling (a second sweep would ignore it and pass through).
  it("never ends inside a box met on another axis at the same time", function()
    w:fill(0, -40, 0, 0, 40, 0, "stone")   -- wall: x in [0, 1)
    w:fill(-40, 1, 0, -1, 1, 0, "stone")   -- ceiling: y in [1, 2), x < 0
    local m = bp.Collider(-1.0134980715113588, -23.175609319103181, 0,
                          -0.41349807151135876, -21.37560931910318, 1)
    local t, ax, ay, az, hit = w:sweep(m, 0.76710693470384339, 41.510435621067913, 0)
    assert.equal(-1, hit.nx) -- the wall
    assert.is_true(t < 1)
    local moved = m + { ax, ay, az }
    local _, _, y2 = select(4, moved:unpack())
    assert.equal(1, y2) -- touching the ceiling, not an ulp into it
    assert.same({}, w:boxes_in(moved))
    local _, _, up = w:sweep(moved, 0, 3, 0)
    assert.equal(0, up) -- and the ceiling still stops it
  end)

  it("sweeps a wide box far beyond the int32 grid (all air there)", function()
    local far = bp.Collider(-5000, 3e9, -5000, 5000, 3e9 + 1, 5000) -- 10^8 cells wide
    assert.same({ 1, 0, 10, 0 }, { w:sweep(far, 0, 10, 0) })
    local below = bp.Collider(-5000, -3e9, -5000, 5000, -3e9 + 1, 5000)
    assert.same({ 1, 0, 10, 0 }, { w:sweep(below, 0, 10, 0) })
  end)

  -- The cells to visit come from the rounded end position, the entry time from the
  -- gap: top + (2 - top) rounds one ulp below 2, yet the entry time is exactly 1.
  it("reports a block met exactly at t = 1, as a collider or c:sweep does", function()
    local world = bp.World()
    world:define_block{ name = "stone" }
    world:set_block(0, 2, 0, "stone")
    local top = -0.58691572609807197
    local vy = 2 - top
    assert.is_true(top + vy < 2)
    local m = bp.Collider(0.25, top - 1, 0.25, 0.75, top, 0.75)
    local t, _, ay, _, hit = world:sweep(m, 0, vy, 0)
    assert.equal(1, t)
    assert.equal(vy, ay)
    assert.same({ 0, 2, 0, -1 }, { hit.x, hit.y, hit.z, hit.ny })
    -- a long move: v = 1 - m rounds by half an ulp of v, far more than of the bound
    world:set_block(1, 0, 0, "stone")
    local hx = -127.96872506266898
    local vx = 1 - hx
    local c = bp.Collider(hx - 0.5, 0.25, 0.25, hx, 0.75, 0.75)
    t, _, _, _, hit = world:sweep(c, vx, 0, 0)
    assert.equal(1, t)
    assert.same({ 1, 0, 0, -1 }, { hit.x, hit.y, hit.z, hit.nx })
    -- the margin comes from the region's high bound too, where the low one is near 0
    world = bp.World()
    world:define_block{ name = "stone" }
    world:set_block(16, 0, 0, "stone")
    local hx16 = -0.347525567533848
    local vx16 = 16 - hx16
    assert.is_true(hx16 + vx16 < 16)
    assert.equal(1, (16 - hx16) / vx16)
    t, _, _, _, hit = world:sweep(bp.Collider(-0.41336751525789561, 0.25, 0.25, hx16, 0.75, 0.75), vx16, 0, 0)
    assert.equal(1, t)
    assert.is_not_nil(hit, "the block at x = 16 was not visited")
    assert.same({ 16, 0, 0, -1 }, { hit.x, hit.y, hit.z, hit.nx })
    -- and the cells counted against max_query_cells stay those touching the region,
    -- at large coordinates too (the margin only widens what is visited)
    local X, lo = 1e9, 1e9 + 1e-6
    assert.equal(1, (bp.World():sweep(bp.Collider(lo, lo, lo, X + 254.5, X + 254.5, X + 254.5), 1, 1, 1)))
  end)

  -- An overlap below DBL_MIN x |v| divides to -0, which once read as an entry at 0.
  it("never hits a box it already overlaps, by however little", function()
    local m = bp.Collider(-1, 0.25, 0.25, 5e-324, 0.75, 0.75)
    local s = bp.Collider(0, 0, 0, 1, 1, 1)
    assert.is_true(m:overlaps(s))
    assert.same({ 1, 0, 0, 0 }, { m:sweep(s, 1000, 0, 0) })
    local world = bp.World()
    world:define_block{ name = "stone" }
    world:set_block(0, 0, 0, "stone")
    assert.same({ 1, 1000, 0, 0 }, { world:sweep(m, 1000, 0, 0) })
  end)
end)

describe("query errors", function()
  local w = H.world()
  local C = bp.Collider(0, 0, 0, 1, 1, 1)
  local dead = bp.World()
  dead:destroy()
  local cases = {
    { function() w:raycast() end, "bad argument #1 to 'raycast' (number expected, got no value)" },
    { function() w:raycast("x", 0, 0, 1, 0, 0, 1) end,
      "bad argument #1 to 'raycast' (number expected, got string)" },
    { function() w:raycast(0 / 0, 0, 0, 1, 0, 0, 1) end,
      "bad argument #1 to 'raycast' (number must be finite)" },
    { function() w:raycast(0, math.huge, 0, 1, 0, 0, 1) end,
      "bad argument #2 to 'raycast' (number must be finite)" },
    { function() w:raycast(0, 0, 3e9, 1, 0, 0, 1) end,
      "bad argument #3 to 'raycast' (origin must be within limits.max_coord of 0)" },
    -- one block past limits.max_coord (pins the bound itself, not just a far origin)
    { function() w:raycast(0, -bp.limits.max_coord - 1, 0, 1, 0, 0, 1) end,
      "bad argument #2 to 'raycast' (origin must be within limits.max_coord of 0)" },
    { function() w:raycast(0, 0, 0, 0, 0, 0, 1) end,
      "bad argument #4 to 'raycast' (direction must not be zero)" },
    { function() w:raycast(0, 0, 0, 1, 0 / 0, 0, 1) end,
      "bad argument #5 to 'raycast' (number must be finite)" },
    { function() w:raycast(0, 0, 0, 1, 0, -math.huge, 1) end,
      "bad argument #6 to 'raycast' (number must be finite)" },
    { function() w:raycast(0, 0, 0, 1, 0, 0) end,
      "bad argument #7 to 'raycast' (number expected, got no value)" },
    { function() w:raycast(0, 0, 0, 1, 0, 0, 0) end,
      "bad argument #7 to 'raycast' (max_distance must be > 0 and <= 4096)" },
    { function() w:raycast(0, 0, 0, 1, 0, 0, -1) end,
      "bad argument #7 to 'raycast' (max_distance must be > 0 and <= 4096)" },
    { function() w:raycast(0, 0, 0, 1, 0, 0, 4096.001) end,
      "bad argument #7 to 'raycast' (max_distance must be > 0 and <= 4096)" },
    { function() w:raycast(0, 0, 0, 1, 0, 0, math.huge) end,
      "bad argument #7 to 'raycast' (number must be finite)" },
    { function() dead:raycast(0, 0, 0, 1, 0, 0, 1) end,
      "calling 'raycast' on bad self (world has been destroyed)" },
    { function() w:raycast_entities(0, 0, 0, 0, 0, 0, 1) end,
      "bad argument #4 to 'raycast_entities' (direction must not be zero)" },
    { function() w:raycast_entities(0, 0, 0, 1, 0, 0, 5000) end,
      "bad argument #7 to 'raycast_entities' (max_distance must be > 0 and <= 4096)" },
    { function() w:raycast_entities(-3e9, 0, 0, 1, 0, 0, 1) end,
      "bad argument #1 to 'raycast_entities' (origin must be within limits.max_coord of 0)" },
    { function() w:sweep({ 0, 0, 0, 1, 1, 1 }, 1, 0, 0) end,
      "bad argument #1 to 'sweep' (blockphys.Collider expected, got table)" },
    { function() w:sweep(C, 0 / 0, 0, 0) end, "bad argument #2 to 'sweep' (number must be finite)" },
    { function() w:sweep(C, 0, 0) end, "bad argument #4 to 'sweep' (number expected, got no value)" },
    { function() w:sweep(C, 1024.5, 0, 0) end,
      "bad argument #2 to 'sweep' (displacement must be at most 1024 blocks per axis)" },
    { function() w:sweep(C, 0, 0, -2000) end,
      "bad argument #4 to 'sweep' (displacement must be at most 1024 blocks per axis)" },
    { function() w:sweep(C, 1024, 1024, 1024) end, "sweep: region too large (more than 16777216 cells)" },
    { function() dead:sweep(C, 1, 0, 0) end, "calling 'sweep' on bad self (world has been destroyed)" },
  }
  for i, c in ipairs(cases) do
    it(("case %d: %s"):format(i, c[2]), function()
      local before = w:stats()
      assert.has_error(c[1], c[2])
      assert.same(before, w:stats())
    end)
  end

  -- The region limit counts the cells sweep scans: on each axis ceil(lo) - 1 .. floor(hi)
  -- of the box grown by the displacement (one more below on Y where some shape rises
  -- above its cell). A box from 0.5 to 255.5 spans 256 cells: 256^3 = 16777216 is the
  -- limit itself (allowed), and one more cell on any axis (257 x 256 x 256) is too many;
  -- so is a box of 256 with integer corners (0 to 255: cells -1 .. 255).
  it("counts the swept region in cells: 256 x 256 x 256 passes, 257 x 256 x 256 raises", function()
    local empty = bp.World()
    local msg = "sweep: region too large (more than 16777216 cells)"
    -- (a displacement of 1e-9 keeps each region's cells; a still box scans none)
    assert.same({ 1, 1e-9, 0, 0 }, { empty:sweep(bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 1e-9, 0, 0) })
    assert.same({ 1, 0, 0, -0.5 }, { empty:sweep(bp.Collider(0.5, 0.5, 1, 255.5, 255.5, 255.5), 0, 0, -0.5) })
    for _, c in ipairs{
      { bp.Collider(0.5, 0.5, 0.5, 256.5, 255.5, 255.5), 1e-9, 0, 0 },
      { bp.Collider(0.5, 0.5, 0.5, 255.5, 256.5, 255.5), 1e-9, 0, 0 },
      { bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 256.5), 1e-9, 0, 0 },
      { bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 1, 0, 0 },
      { bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 0, -1, 0 },
      { bp.Collider(0, 0.5, 0.5, 255, 255.5, 255.5), 0, 1e-9, 0 },
      { bp.Collider(0.5, 0.5, 1, 255.5, 255.5, 255.5), 0, 0, -1 },
    } do
      assert.has_error(function() empty:sweep(c[1], c[2], c[3], c[4]) end, msg)
    end
    -- a world with a shape rising above its cell (the fence) scans one more Y layer
    assert.has_error(function() w:sweep(bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 1e-9, 0, 0) end, msg)
    assert.same({ 1, 1e-9, 0, 0 }, { w:sweep(bp.Collider(0.5, 0.5, 0.5, 255.5, 254.5, 255.5), 1e-9, 0, 0) })
  end)

  -- Beyond the int32 grid every cell is air: a region wholly past it on some axis
  -- counts no cells, however wide it is on the others (a clamp to the edge rows
  -- used to count them and raise).
  it("counts no cells for a box wholly beyond the int32 grid", function()
    local empty = bp.World()
    assert.same({ 1, 0, 0, 0 }, { empty:sweep(bp.Collider(1e300, 0.5, 0.5, 1e300, 4095.5, 4095.5), 0, 0, 0) })
    assert.same({ 1, 0, 0, 0 }, { empty:sweep(bp.Collider(-1e300, 0.5, 0.5, -1e300, 4095.5, 4095.5), 0, 0, 0) })
    -- 2^31 + 1 is the top of the last cell's top face: still counted
    local msg = "sweep: region too large (more than 16777216 cells)"
    assert.has_error(function()
      empty:sweep(bp.Collider(2 ^ 31 + 1, 0.5, 0.5, 2 ^ 31 + 1, 4095.5, 4095.5), 0, 1e-9, 0)
    end, msg)
  end)

  it("accepts the largest region and displacement", function()
    assert.same({ 1, 1024, 0, 0 }, { w:sweep(C, 1024, 0, 0) })
    assert.same({ 1, 0, 0, -1024 }, { w:sweep(bp.Collider(1e300, 0, 0, 1e300, 1, 1), 0, 0, -1024) })
  end)
end)
