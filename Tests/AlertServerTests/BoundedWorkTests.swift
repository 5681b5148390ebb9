import Dispatch
import Locking
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import AlertServer

// The threads heavy request work runs on: every job taken runs, in order, never more at once
// than the threads, and past threads plus backlog a job is refused.

@Suite("BoundedWork")
struct BoundedWorkTests {
    @Test("past its threads and backlog a job is refused; a job taken runs once room comes")
    func refusesPastTheBound() {
        let work = BoundedWork(threads: 1, backlog: 1)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let ran = Locked<[String]>([])

        #expect(work.submit { release.wait(); ran.withLock { $0.append("first") } })
        #expect(work.submit { ran.withLock { $0.append("waiting") }; done.signal() })
        #expect(!work.submit { ran.withLock { $0.append("refused") } })
        #expect(work.pending == 2)

        release.signal()
        done.wait()
        #expect(ran.withLock { $0 } == ["first", "waiting"])
    }

    @Test("every job taken runs, in order on one thread, never more at once than the threads")
    func runsEveryJob() {
        for threads in [1, 3] {
            let work = BoundedWork(threads: threads, backlog: 100)
            let state = Locked((running: 0, most: 0, order: [Int]()))
            let done = DispatchSemaphore(value: 0)
            for index in 0..<100 {
                let taken = work.submit {
                    state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                    state.withLock { $0.running -= 1; $0.order.append(index) }
                    done.signal()
                }
                #expect(taken)
            }
            for _ in 0..<100 { done.wait() }
            let (_, most, order) = state.withLock { $0 }
            #expect(most <= threads)
            #expect(order.count == 100)
            if threads == 1 { #expect(order == Array(0..<100)) }
        }
    }

    #if os(Linux)
    @Test("a job runs at nice 10, and the thread that submitted it keeps its own priority")
    func lowerPriority() {
        let work = BoundedWork(threads: 1, backlog: 0)
        let done = DispatchSemaphore(value: 0)
        let nice = Locked<Int32?>(nil)
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(work.submit {
            nice.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            done.signal()
        })
        done.wait()
        #expect(nice.withLock { $0 } == max(before, 10))  // a runner started above nice 10 keeps its value
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }
    #endif

    @Test("specs get half the cores, at least one thread, and 8 waiting per thread")
    func forSpecs() {
        #expect(BoundedWork.forSpecs(cores: 1).threads == 1)
        #expect(BoundedWork.forSpecs(cores: 2).threads == 1)
        #expect(BoundedWork.forSpecs(cores: 8).threads == 4)
        #expect(BoundedWork.forSpecs(cores: 8).backlog == 32)
    }
}
