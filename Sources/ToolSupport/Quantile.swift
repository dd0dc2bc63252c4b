/// The value below which `fraction` of `sorted` lies, interpolating linearly between neighbours: the one quantile
/// routine of the kit's measurements and the bench's statistics.
public func quantile(sorted: [Double], _ fraction: Double) -> Double {
    precondition(!sorted.isEmpty, "quantile: no values")
    let position = fraction * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
}
