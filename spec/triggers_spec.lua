-- Triggers and sensor entities: enter and leave events in world:events(), in a
-- documented order, with groups and masks, removals, and no blocking or pushing.
local bp = require "blockphys"
local H = require "helpers.world"

local function sensing(w)
  local out = {}
  for _, ev in ipairs(w:events()) do
    if ev.type == "enter" or ev.type == "leave" then out[#out + 1] = ev end
  end
  return out
end

-- A walker toward +X (yaw -90) on a floor.
local function walker(w, x, z)
  local e = w:spawn{ x = x, y = 64, z = z }
  e:set_input(1, 0, -90, false, false)
  return e
end

describe("triggers", function()
  it("report enter and leave along a walk through several, with tags, in tick order", function()
    local w = H.world()
    H.flat(w, 63)
    local a = w:add_trigger(bp.Collider(2, 64, -1, 3, 65, 2), "plate A")
    local b = w:add_trigger(bp.Collider(5, 64, -1, 6, 65, 2), { name = "plate B" })
    local e = walker(w, 0.5, 0.5)
    local seen = {}
    for _ = 1, 40 do
      w:step()
      for _, ev in ipairs(sensing(w)) do
        assert.equal(e, ev.entity)
        assert.equal(w.tick, ev.tick)
        seen[#seen + 1] = { ev.type, ev.trigger, ev.tick }
        if ev.trigger == b then assert.equal("plate B", ev.tag.name) else assert.equal("plate A", ev.tag) end
      end
    end
    -- the box (x +- 0.3) overlaps [2, 3] from x > 1.7 to x < 3.3, and [5, 6] likewise
    assert.equal(4, #seen)
    assert.same({ "enter", a }, { seen[1][1], seen[1][2] })
    assert.same({ "leave", a }, { seen[2][1], seen[2][2] })
    assert.same({ "enter", b }, { seen[3][1], seen[3][2] })
    assert.same({ "leave", b }, { seen[4][1], seen[4][2] })
    assert.is_true(seen[1][3] < seen[2][3] and seen[2][3] < seen[3][3] and seen[3][3] < seen[4][3])
  end)

  it("order one tick's events by trigger, then entity creation order; a removal leaves at once", function()
    local w = H.world()
    H.flat(w, 63)
    local big = w:add_trigger(bp.Collider(-4, 64, -4, 4, 66, 4), "big")
    local small = w:add_trigger(bp.Collider(-1, 64, -1, 1, 66, 1), "small")
    local e1 = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local e2 = w:spawn{ x = -0.5, y = 64, z = -0.5 }
    w:step()
    local evs = sensing(w)
    assert.same({ "enter", big, e1 }, { evs[1].type, evs[1].trigger, evs[1].entity })
    assert.same({ "enter", big, e2 }, { evs[2].type, evs[2].trigger, evs[2].entity })
    assert.same({ "enter", small, e1 }, { evs[3].type, evs[3].trigger, evs[3].entity })
    assert.same({ "enter", small, e2 }, { evs[4].type, evs[4].trigger, evs[4].entity })
    assert.equal(4, #evs)
    w:step()
    assert.same({}, sensing(w)) -- staying in is no event
    w:remove(e1)
    evs = sensing(w)
    assert.equal(2, #evs)
    assert.same({ "leave", big, e1, 2 }, { evs[1].type, evs[1].trigger, evs[1].entity, evs[1].tick })
    assert.same({ "leave", small, e1 }, { evs[2].type, evs[2].trigger, evs[2].entity })
    assert.is_false(evs[1].entity:valid())
    w:remove_trigger(small)
    evs = sensing(w)
    assert.same({ { "leave", small, e2, "small" } },
      { { evs[1].type, evs[1].trigger, evs[1].entity, evs[1].tag } })
    assert.has_error(function() w:remove_trigger(small) end,
      "bad argument #1 to 'remove_trigger' (no such trigger (removed, never added, or another world's))")
  end)

  it("apply groups and masks, and block nothing", function()
    local w = H.world()
    H.flat(w, 63)
    local t = w:add_trigger(bp.Collider(-2, 64, -2, 2, 66, 2), nil, { group = 1, mask = 2 })
    local player = w:spawn{ x = 0.5, y = 64, z = 0.5, group = 2 }
    w:spawn{ x = -0.5, y = 64, z = -0.5, group = 4 } -- not in the trigger's mask
    for _ = 1, 3 do w:step() end
    local evs = sensing(w)
    assert.equal(1, #evs)
    assert.same({ "enter", t, player }, { evs[1].type, evs[1].trigger, evs[1].entity })
    assert.same({}, w:boxes_in(bp.Collider(-2, 64, -2, 2, 66, 2))) -- a trigger is no box
  end)

  it("check their arguments", function()
    local w = H.world()
    assert.has_error(function() w:add_trigger(5) end)
    assert.has_error(function() w:add_trigger(bp.Collider(0, 0, 0, 1, 1, 1), nil, { group = -1 }) end,
      "add_trigger: option 'group' must be an integer in [0, 2^32)")
    assert.has_error(function() w:add_trigger(bp.Collider(0, 0, 0, 1, 1, 1), nil, { colour = 1 }) end)
    assert.has_error(function() w:remove_trigger(12345) end)
  end)
end)

describe("sensor entities", function()
  it("report what they overlap, and neither block, push nor are pushed", function()
    local w = H.world()
    H.flat(w, 63)
    local s = w:spawn{ x = 4, y = 64, z = 0.5, width = 2, height = 2, sensor = true,
                       rules = bp.rules.beta173{ push = "beta173" } }
    assert.is_true(s.sensor)
    local e = walker(w, 0.5, 0.5)
    local kinds = {}
    for _ = 1, 40 do
      w:step()
      for _, ev in ipairs(sensing(w)) do
        assert.equal(s, ev.sensor)
        assert.equal(e, ev.entity)
        assert.is_nil(ev.trigger)
        kinds[#kinds + 1] = ev.type
      end
    end
    assert.same({ "enter", "leave" }, kinds)
    assert.equal(4, s.x) -- never pushed
    assert.is_true(e.x > 6) -- walked through it
    assert.has_error(function() w:spawn{ x = 0, y = 64, z = 0, sensor = true, solid = true } end,
      "spawn: a sensor cannot be solid (it blocks nothing)")
    assert.has_error(function() s.sensor = false end, "entity field 'sensor' is read-only")
  end)

  it("leave when the sensor is removed", function()
    local w = H.world()
    H.flat(w, 63)
    local s = w:spawn{ x = 0.5, y = 64, z = 0.5, sensor = true }
    local e = w:spawn{ x = 0.6, y = 64, z = 0.5 }
    w:step()
    assert.equal(1, #sensing(w))
    w:remove(s)
    local evs = sensing(w)
    assert.same({ "leave", e, s }, { evs[1].type, evs[1].entity, evs[1].sensor })
  end)

  it("cost what their overlaps cost: 1,000 triggers and 10,000 entities step", function()
    local w = H.world()
    H.flat(w, 63, "stone", 200)
    local rand = H.rng(5)
    for _ = 1, 1000 do
      local x, z = rand(380) - 190, rand(380) - 190
      w:add_trigger(bp.Collider(x, 64, z, x + 2, 66, z + 2))
    end
    for _ = 1, 10000 do
      w:spawn{ x = rand() * 380 - 190, y = 64, z = rand() * 380 - 190 }
    end
    w:step()
    local evs = sensing(w)
    assert.is_true(#evs > 0)
    for _, ev in ipairs(evs) do assert.equal("enter", ev.type) end -- the first overlaps
    w:step()
    for _, ev in ipairs(sensing(w)) do -- then what the pushes changed
      assert.is_true(ev.type == "enter" or ev.type == "leave")
    end
  end)
end)

describe("carrying platforms", function()
  local function lift_world()
    local w = H.world()
    H.flat(w, 63)
    w:fill(-8, 70, -8, 8, 70, 8, "stone") -- a ceiling: its face at y = 70
    local lift = w:spawn{ x = 0, y = 64, z = 0, width = 3, height = 0.5, solid = true, carry = true,
                          rules = bp.rules.beta173{ gravity = 0, push = false } }
    local player = w:spawn{ x = 0, y = 64.5, z = 0 }
    local crate = w:spawn{ x = 0, y = 66.3, z = 0, width = 0.9, height = 0.9, solid = true }
    for _ = 1, 20 do w:step() end
    return w, lift, player, crate
  end

  it("carry a stacked rider up to a ceiling and down again, never into a block", function()
    local w, lift, player, crate = lift_world()
    local tall = H.f32(1.8) -- the player's height, a float as the game's
    assert.equal(64.5, player.y)
    assert.equal(64.5 + tall, crate.y)
    assert.equal(lift, select(2, player:ground()))
    assert.equal(player, select(2, crate:ground()))
    for _ = 1, 40 do
      lift.vy = 0.1
      w:step()
      assert.is_true(crate.y + 0.9 <= 70 + 1e-9, "crate in the ceiling")
      assert.is_true(player.y >= lift.y + 0.5 - 1e-9, "player in the lift")
      assert.same({}, w:boxes_in(player:box()))
      assert.same({}, w:boxes_in(crate:box()))
    end
    -- the crate stops at the ceiling (70 - 0.9), the player under it, the lift under them
    assert.near(69.1, crate.y, 1e-9)
    assert.near(69.1 - tall, player.y, 1e-9)
    assert.near(69.1 - tall - 0.5, lift.y, 1e-9)
    assert.is_true(player.on_ground)
    for _ = 1, 60 do
      lift.vy = -0.1
      w:step()
    end
    assert.equal(64, lift.y)
    assert.near(64.5, player.y, 1e-9)
    assert.near(64.5 + tall, crate.y, 1e-9)
    assert.equal(lift, select(2, player:ground()))
  end)

  it("carry sideways with the platform's displacement, and report it as ground velocity", function()
    local w, lift, player, crate = lift_world()
    local x0, c0 = player.x, crate.x
    for _ = 1, 10 do
      lift.vx = 0.25
      w:step()
    end
    assert.near(2.5, lift.x, 1e-12)
    assert.near(x0 + 2.5, player.x, 1e-9)
    assert.near(c0 + 2.5, crate.x, 1e-9)
    assert.near(0.25, player.ground_vx, 1e-12)
    assert.is_true(player.on_ground)
    -- drawn between ticks: the ride is part of the last tick's motion
    assert.near(player.x - 0.125, (player:lerp(0.5)), 1e-9)
  end)

  it("does not carry what only touches its side, nor a jumper in the air", function()
    local w = H.world()
    H.flat(w, 63)
    local raft = w:spawn{ x = 0, y = 64, z = 0, width = 2, height = 0.5, solid = true, carry = true,
                          rules = bp.rules.beta173{ gravity = 0, push = false } }
    local beside = w:spawn{ x = 1.4, y = 64, z = 0 }
    for _ = 1, 5 do w:step() end
    for _ = 1, 4 do raft.vz = 0.2; w:step() end
    assert.equal(0, beside.z)
    assert.is_false(raft.carry == false)
    raft.carry = false
    assert.is_false(raft.carry)
  end)
end)
