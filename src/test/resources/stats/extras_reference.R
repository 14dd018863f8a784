# Reference values for ComparisonTests and HolmTests (R 4.2.2):  Rscript extras_reference.R
f <- function(v) sprintf("%.17g", v)
source_case <- function(name) {
  lines <- readLines("cases.txt"); i <- which(lines == paste("case", name))
  num <- function(l) as.numeric(strsplit(sub("^[a-z]+ ", "", l), " ")[[1]])
  list(with = num(lines[i + 1]), without = num(lines[i + 2]))
}
cat("# R:", R.version.string, "\n")
cat("holm", f(p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5, 0.04), "holm")), "\n")
c <- source_case("unequal_variances"); x <- c$with; y <- c$without
nx <- length(x); ny <- length(y); df <- nx + ny - 2
sp <- sqrt(((nx - 1) * var(x) + (ny - 1) * var(y)) / df)
d <- (mean(x) - mean(y)) / sp
J <- exp(lgamma(df / 2) - lgamma((df - 1) / 2)) / sqrt(df / 2)
cat("effect", f(d), f(J * d), "\n")
w <- t.test(x, y)
a <- mean(x); b <- mean(y); va <- var(x) / nx; vb <- var(y) / ny; q <- qt(0.975, w$parameter)
g <- q^2 * vb / b^2; r <- a / b; h <- q / abs(b) * sqrt(va + r^2 * vb - g * va)
cat("fieller", f(100 * (r - 1)), f(100 * ((r - h) / (1 - g) - 1)), f(100 * ((r + h) / (1 - g) - 1)), "\n")
for (m in c(1, 10)) {
  delta <- m / 100 * abs(b)
  p1 <- t.test(x, y, mu = -delta, alternative = "greater")$p.value
  p2 <- t.test(x, y, mu = delta, alternative = "less")$p.value
  cat("tost", m, f(max(p1, p2)), "\n")
}
mde <- (qt(0.975, w$parameter) + qt(0.8, w$parameter)) * w$stderr
cat("mde", f(100 * mde / abs(b)), "\n")
cat("power.t.test_n_for_1pct", f(power.t.test(delta = 0.01 * abs(b), sd = sqrt((var(x) + var(y)) / 2), power = 0.8)$n), "\n")
s <- c(2.5, 3.1, 2.9, 3.0, 2.8, 3.3, 2.7, 3.0, 2.6, 9.5)
cat("quantile", f(quantile(s)), "\n")
