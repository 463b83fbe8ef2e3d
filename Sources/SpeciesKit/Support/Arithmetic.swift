extension Int {
    /// `self / divisor`, rounded up, for positive numbers, without the
    /// overflow of `(self + divisor - 1) / divisor` near `Int.max`: counts
    /// come from the server.
    func dividedRoundingUp(by divisor: Int) -> Int {
        self / divisor + (self % divisor == 0 ? 0 : 1)
    }

    /// `self + other`, held at `Int.max` or `Int.min` instead of trapping:
    /// page numbers come from the command line and counts from the server.
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
