-- The request mix of Benchmarks/todo-load.sh, for wrk: reads of a list's items (half), of the
-- lists with their item counts (a quarter), of one list, and writes of new items. Lists 1 to 10
-- exist (the load script seeds them, 50 items each).
math.randomseed(os.time())
local post_headers = { ["Content-Type"] = "application/json" }
local counter = 0

request = function()
    counter = counter + 1
    local list = math.random(1, 10)
    local pick = math.random(1, 100)
    if pick <= 50 then
        return wrk.format("GET", "/lists/" .. list .. "/items?limit=20&offset=" .. math.random(0, 30))
    elseif pick <= 75 then
        return wrk.format("GET", "/lists?limit=10")
    elseif pick <= 90 then
        return wrk.format("GET", "/lists/" .. list)
    else
        local body = '{"title": "load ' .. counter .. '", "done": false}'
        return wrk.format("POST", "/lists/" .. list .. "/items", post_headers, body)
    end
end

-- Any answer but 200 and 201 is an error: wrk counts them as "Non-2xx" already; this makes a
-- 4xx visible too.
response = function(status, headers, body)
    if status ~= 200 and status ~= 201 then
        wrk.thread:set("bad", (wrk.thread:get("bad") or 0) + 1)
    end
end
