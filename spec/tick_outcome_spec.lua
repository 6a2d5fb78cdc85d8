-- A step's outcome fields describe the whole step, under every rules model,
-- integrator and resolver: landings and ceiling hits inside a split MC-CPP step are
-- reported (landing_fall, collided_vertically), and each reaches world:events().
local bp = require "blockphys"
local H = require "helpers.world"

local PRESETS = {
  { "beta173 axis", function() return bp.rules.beta173() end },
  { "beta173 swept", function() return bp.rules.beta173{ resolver = "swept" } end },
  { "mccpp exact swept", function() return bp.rules.mccpp() end },
  { "mccpp exact axis", function() return bp.rules.mccpp{ resolver = "axis" } end },
  { "mccpp mccpp swept", function() return bp.rules.mccpp{ integrator = "mccpp" } end },
  { "mccpp mccpp axis", function()
    return bp.rules.mccpp{ integrator = "mccpp", resolver = "axis" } end },
}
local DTS = { 1 / 240, 1 / 60, 1 / 20 }

local function events_of(w, typ)
  local out = {}
  for _, ev in ipairs(w:events()) do
    if ev.type == typ then out[#out + 1] = ev end
  end
  return out
end

describe("a step's outcome", function()
  for _, p in ipairs(PRESETS) do
    for _, dt in ipairs(DTS) do
      local name = ("%s at dt 1/%d"):format(p[1], math.floor(1 / dt + 0.5))

      it("reports the landing of a 9.5-block fall: " .. name, function()
        local w = H.world()
        H.flat(w, 63)
        local e = w:spawn{ x = 0.5, y = 73.5, z = 0.5, rules = p[2]() }
        local before, steps
        steps = 0
        repeat
          before = e.fall_distance
          w:step(dt)
          steps = steps + 1
        until e.landing_fall > 0 or steps > 2000
        -- on the floor (the swept resolver stops back_off of its move short of it)
        assert.is_true(e.y >= 64 and e.y < 64.002, "y " .. e.y)
        assert.is_true(e.collided_vertically)
        -- the fall distance of the whole drop, less at most the landing move's part
        assert.is_true(e.landing_fall >= before and e.landing_fall > 8 and e.landing_fall <= 9.5,
          "landing_fall " .. e.landing_fall .. " (fall_distance before the step " .. before .. ")")
        -- (a split step's last piece may sink into the gap a swept move leaves above
        -- the floor: a ten-thousandth of a block, landed on again in the next step)
        assert.is_true(e.fall_distance < 1e-3)
        local lands = events_of(w, "land")
        assert.equal(1, #lands)
        assert.equal(e, lands[1].entity)
        assert.equal(e.landing_fall, lands[1].fall)
        assert.equal(w.tick, lands[1].tick)
        assert.same({ "block", 0, 63, 0 }, { lands[1].kind, lands[1].x, lands[1].y, lands[1].z })
        w:step(dt) -- standing: no new landing, and the flag describes that step
        assert.equal(0, e.landing_fall)
        assert.equal(0, #w:events())
        for _ = 1, 40 do w:step(dt) end -- standing on: no new landing or hit
        assert.equal(0, #w:events())
        assert.equal("block", (e:ground()))
      end)

      it("reports a ceiling hit inside the step: " .. name, function()
        local w = H.world()
        H.flat(w, 63)
        w:fill(-4, 66, -4, 4, 66, 4, "stone") -- ceiling face at y = 66: 0.2 above the head
        local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = p[2]() }
        for _ = 1, 4 do w:step(dt) end
        assert.is_true(e.on_ground)
        w:events()
        e.jumping = true
        local hit
        local steps = 0
        repeat
          w:step(dt)
          steps = steps + 1
          hit = e.collided_vertically and not e.on_ground
        until hit or steps > 400
        assert.is_true(hit, "no ceiling hit reported")
        local hits = {}
        for _, ev in ipairs(events_of(w, "hit")) do
          if ev.ny == -1 then hits[#hits + 1] = ev end
        end
        assert.equal(1, #hits)
        assert.same({ "block", 0, 66, 0, 0, 0 }, { hits[1].kind, hits[1].x, hits[1].y, hits[1].z,
          hits[1].nx, hits[1].nz })
        assert.is_true(hits[1].speed > 0)
        assert.equal(w.tick, hits[1].tick)
      end)

      it("reports a wall hit, its contacts and the ground: " .. name, function()
        local w = H.world()
        H.flat(w, 63)
        w:fill(-4, 64, 3, 4, 65, 3, "stone") -- a wall whose face is at z = 3
        local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = p[2]() }
        for _ = 1, 4 do w:step(dt) end
        w:events()
        e:set_input(1, 0, 0, false, false) -- toward +Z
        local steps = 0
        repeat
          w:step(dt)
          steps = steps + 1
        until e.collided_horizontally or steps > 2000
        assert.is_true(e.collided_horizontally)
        assert.is_true(e.z > 2.69 and e.z <= 2.7, "z " .. e.z)
        local walls = {}
        for _, ev in ipairs(w:events()) do
          if ev.type == "hit" and ev.nz == -1 then walls[#walls + 1] = ev end
        end
        assert.equal(1, #walls)
        assert.same({ "block", 0, 3 }, { walls[1].kind, walls[1].x, walls[1].z })
        -- the wall's two blocks in front of the box, the floor block under it
        local faces = {}
        for _, c in ipairs(e:contacts()) do
          faces[#faces + 1] = ("%d,%d,%d %d,%d,%d"):format(c.x, c.y, c.z, c.nx, c.ny, c.nz)
        end
        assert.same({ "0,63,2 0,1,0", "0,64,3 0,0,-1", "0,65,3 0,0,-1" }, faces)
        assert.same({ "block", 0, 63, 2, w:block_id("stone") }, { e:ground() })
        for _ = 1, 20 do w:step(dt) end -- pushing on: no new hit
        for _, ev in ipairs(w:events()) do assert.is_false(ev.type == "hit" and ev.nz == -1) end
      end)
    end
  end

  it("Beta's landing_fall is the game's: 8.5843534469604 after a 9.5-block fall", function()
    local w = H.world()
    H.flat(w, 63)
    local e = w:spawn{ x = 0.5, y = 73.5, z = 0.5 }
    repeat w:step() until e.on_ground
    assert.near(8.5843534469604, e.landing_fall, 1e-12)
  end)

  it("counts ticks: world.tick is the steps run, read-only; a failed step is not one", function()
    local w = H.world()
    assert.equal(0, w.tick)
    w:step()
    w:step(0.01)
    assert.equal(2, w.tick)
    w:advance(0.5)
    assert.equal(12, w.tick)
    assert.has_error(function() w.tick = 3 end, "world field 'tick' is read-only")
    w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
      heading = function() error("nope", 0) end } }
    assert.has_error(function() w:step() end)
    assert.equal(12, w.tick)
    if math.type then assert.equal("integer", math.type(w.tick)) end
  end)
end)
