import SchedulerExplorer
import Testing

// Docs/Exploring.md's example, on an account whose withdrawal checks and takes in one step, so that every schedule
// passes.

@Suite struct ExploringSnippets {
    @Test func twoWithdrawalsNeverOverdraw() async {
        let report = await explore(schedules: 1_000, strategy: .random) { exploration in
            let account = Account(balance: 100)
            async let a = account.withdraw(70)
            async let b = account.withdraw(70)
            _ = await (a, b)
            let balance = await account.balance
            try check(balance >= 0, "overdrawn: \(balance)")
        }
        #expect(report.failure == nil, "\(report)")
    }
}

private actor Account {
    private(set) var balance: Int
    init(balance: Int) { self.balance = balance }

    func withdraw(_ amount: Int) -> Bool {
        guard balance >= amount else { return false }
        balance -= amount
        return true
    }
}
