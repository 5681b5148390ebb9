-- wrk: a render that misses the cache every time (distinct parameters per request), as a client
-- would ask for newMessages with ever new counts and senders.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  return wrk.format("GET", "/v1/catalogs/app/alerts/newMessages?locale=zh-Hans&count=" .. counter .. "&sender=t" .. tid)
end
