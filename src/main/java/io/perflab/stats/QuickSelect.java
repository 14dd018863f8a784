package io.perflab.stats;

/** In-place selection of the k-th smallest value (0-based) by Hoare partitioning with median-of-three pivots. */
final class QuickSelect {

    private QuickSelect() {
    }

    static double select(double[] a, int k) {
        int left = 0;
        int right = a.length - 1;
        while (right > left) {
            int mid = (left + right) >>> 1;
            if (a[mid] < a[left]) {
                swap(a, mid, left);
            }
            if (a[right] < a[left]) {
                swap(a, right, left);
            }
            if (a[right] < a[mid]) {
                swap(a, right, mid);
            }
            double pivot = a[mid];
            int i = left;
            int j = right;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(a, i, j);
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                right = j;
            } else if (k >= i) {
                left = i;
            } else {
                return a[k];
            }
        }
        return a[k];
    }

    /** The median of {@code a} (the mean of the two middle values for an even count), reordering {@code a}. */
    static double median(double[] a) {
        int n = a.length;
        double upper = select(a, n / 2);
        if (n % 2 == 1) {
            return upper;
        }
        // select leaves the n/2 smallest values before index n/2: the largest of them is the lower middle
        double lower = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n / 2; i++) {
            lower = Math.max(lower, a[i]);
        }
        return (lower + upper) / 2;
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
