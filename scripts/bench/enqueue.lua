-- wrk: enqueue distinct alerts into many sessions (so no session fills up), as the admin.
local admin = os.getenv("ADMIN")
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local session = "bench-" .. tid .. "-" .. (counter % 5000)
  local body = '{"alert":"app/newMessages","params":{"count":1,"sender":"s' .. counter .. '"},"dedupeKey":"k' .. counter .. '"}'
  return wrk.format("POST", "/v1/sessions/" .. session .. "/queue",
    {["Authorization"] = "Bearer " .. admin, ["Content-Type"] = "application/json"}, body)
end
